import { describe, expect, it } from 'vitest';
import { canChange, canRead, canReadDirectly, itemControl } from '../../../lib/access/items.js';
import { hasPrivilege, isAdmin, privilegesOf, roleOf } from '../../../lib/access/roles.js';

const user = (role: string, username = 'alice', disabled = false) => ({ username, role, disabled });

describe('roles', () => {
  it('reads the account_ spellings as the same roles', () => {
    expect(roleOf('account_admin')).toBe('org_admin');
    expect(roleOf('ACCOUNT_PUBLISHER')).toBe('org_publisher');
    expect(roleOf('account_user')).toBe('org_user');
    expect(roleOf('org_admin')).toBe('org_admin');
    expect(roleOf('superuser')).toBeUndefined();
  });

  it('counts an enabled org_admin or account_admin as an administrator, nobody else', () => {
    expect(isAdmin(user('org_admin'))).toBe(true);
    expect(isAdmin(user('account_admin'))).toBe(true);
    expect(isAdmin(user('org_admin', 'alice', true))).toBe(false);
    expect(isAdmin(user('org_publisher'))).toBe(false);
    expect(isAdmin(undefined)).toBe(false);
  });

  it('gives publishers and administrators the publishing privileges and plain users none', () => {
    for (const p of ['publishFeatures', 'publishTiles', 'publishVectorTiles']) {
      expect(hasPrivilege(user('org_user'), `portal:publisher:${p}`)).toBe(false);
      expect(hasPrivilege(user('org_publisher'), `portal:publisher:${p}`)).toBe(true);
      expect(hasPrivilege(user('account_admin'), `portal:publisher:${p}`)).toBe(true);
    }
    expect(privilegesOf('org_user')).toEqual([
      'portal:user:joinGroup',
      'portal:user:createGroup',
      'portal:user:createItem',
      'portal:user:shareToGroup',
    ]);
    expect(hasPrivilege(user('org_publisher', 'bob', true), 'portal:user:createItem')).toBe(false);
  });
});

describe('items', () => {
  const item = (access: string) => ({ owner: 'Owner1', access });

  it('lets anyone read public items and signed-in users read org items', () => {
    expect(canReadDirectly(item('public'), undefined)).toBe(true);
    expect(canReadDirectly(item('org'), undefined)).toBe(false);
    expect(canReadDirectly(item('org'), user('org_user'))).toBe(true);
  });

  it('lets only the owner (any case), an administrator or a group member read a shared item', () => {
    expect(canRead(item('shared'), user('org_user', 'owner1'), false)).toBe(true);
    expect(canRead(item('shared'), user('org_admin'), false)).toBe(true);
    expect(canRead(item('shared'), user('org_user'), false)).toBe(false);
    expect(canRead(item('shared'), user('org_user'), true)).toBe(true);
    expect(canRead(item('private'), user('org_user', 'alice', true), true)).toBe(false);
  });

  it('lets only the owner or an administrator change an item', () => {
    expect(canChange(item('public'), user('org_user', 'OWNER1'))).toBe(true);
    expect(canChange(item('public'), user('account_admin'))).toBe(true);
    expect(canChange(item('public'), user('org_publisher'))).toBe(false);
    expect(itemControl(item('org'), user('account_admin'))).toBe('admin');
    expect(itemControl(item('org'), user('org_user', 'owner1'))).toBe('update');
    expect(itemControl(item('org'), user('org_user'))).toBeUndefined();
  });
});
