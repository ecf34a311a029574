import { describe, expect, it } from 'vitest';
import { canManageGroup, canSeeGroup, canShareToGroup } from '../../../lib/access/groups.js';

const user = { username: 'u', role: 'org_user', disabled: false };
const admin = { username: 'a', role: 'org_admin', disabled: false };

describe('sharing into a group', () => {
  it('lets any member share into an ordinary group, and nobody outside it but administrators', () => {
    const group = { isViewOnly: false };
    expect(canShareToGroup(group, user, 'member')).toBe(true);
    expect(canShareToGroup(group, user, undefined)).toBe(false);
    expect(canShareToGroup(group, admin, undefined)).toBe(true);
  });

  it('lets only the owner and group administrators share into a view-only group', () => {
    const group = { isViewOnly: true };
    expect(canShareToGroup(group, user, 'member')).toBe(false);
    expect(canShareToGroup(group, user, 'admin')).toBe(true);
    expect(canShareToGroup(group, user, 'owner')).toBe(true);
    expect(canShareToGroup(group, admin, undefined)).toBe(true);
  });
});

describe('seeing and managing a group', () => {
  it('shows public groups to anyone, org groups to the signed-in, private ones to members and administrators', () => {
    expect(canSeeGroup({ access: 'public' }, undefined, undefined)).toBe(true);
    expect(canSeeGroup({ access: 'org' }, undefined, undefined)).toBe(false);
    expect(canSeeGroup({ access: 'org' }, user, undefined)).toBe(true);
    expect(canSeeGroup({ access: 'private' }, user, undefined)).toBe(false);
    expect(canSeeGroup({ access: 'private' }, user, 'member')).toBe(true);
    expect(canSeeGroup({ access: 'private' }, admin, undefined)).toBe(true);
  });

  it('lets group admins manage members but only the owner or an administrator change the group', () => {
    expect(canManageGroup(user, 'admin', 'members')).toBe(true);
    expect(canManageGroup(user, 'admin', 'group')).toBe(false);
    expect(canManageGroup(user, 'owner', 'group')).toBe(true);
    expect(canManageGroup(user, 'member', 'members')).toBe(false);
    expect(canManageGroup(admin, undefined, 'group')).toBe(true);
  });
});
