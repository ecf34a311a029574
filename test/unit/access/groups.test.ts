import { describe, expect, it } from 'vitest';
import { canShareToGroup } from '../../../lib/access/groups.js';

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
