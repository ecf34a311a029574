import { describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { addTextItem, admin, newUser, STRONG_PASSWORD, unique } from './portal-helpers.js';

const createUser = async (params: Record<string, string>) =>
  call('/portaladmin/security/users/createUser', { token: await admin(), ...params });

const validUser = () => {
  const username = unique('new');
  return {
    username,
    password: STRONG_PASSWORD,
    email: `${username}@example.com`,
    firstname: 'Ada',
    lastname: 'Lovelace',
  };
};

describe('createUser', () => {
  it('creates an account that can sign in with the role asked for', async () => {
    const fields = validUser();
    const res = await createUser({ ...fields, role: 'org_publisher' });
    expect(res.json).toEqual({ status: 'success' });
    const token = await signIn(fields.username, fields.password);
    const self = await call('/sharing/rest/community/self', { token });
    expect(self.json.username).toBe(fields.username);
    expect(self.json.role).toBe('org_publisher');
    expect(self.json.fullName).toBe('Ada Lovelace');
    expect(self.json.email).toBe(fields.email);
  });

  it('gives new accounts the org_user role by default', async () => {
    const fields = validUser();
    await createUser(fields);
    const info = await call(`/sharing/rest/community/users/${fields.username}`, { token: await admin() });
    expect(info.json.role).toBe('org_user');
  });

  it.each([
    ['a username shorter than 6 characters', { username: 'abc' }, /username/],
    ['a username with a space', { username: 'has space1' }, /username/],
    ['a missing email', { email: '' }, /email/],
    ['an unknown role', { role: 'org_superuser' }, /role/],
    ['a missing password', { password: '' }, /password/],
    ['a password the policy rejects', { password: 'short1' }, /at least \d+ characters/],
  ])('refuses %s', async (_what, override, detail) => {
    const res = await createUser({ ...validUser(), ...override });
    expect(res.json.error.code).toBe(400);
    expect(res.json.error.details.join(' ')).toMatch(detail);
  });

  it('refuses a username that exists in another letter case', async () => {
    const fields = validUser();
    await createUser(fields);
    const res = await createUser({ ...validUser(), username: fields.username.toUpperCase() });
    expect(res.json.error.details[0]).toMatch(/already exists/);
  });

  it('is refused to a member who is not an administrator', async () => {
    const member = await newUser();
    const res = await call('/portaladmin/security/users/createUser', { token: member.token, ...validUser() });
    expect(res.json.error.code).toBe(403);
  });

  it('asks for a token when none is sent', async () => {
    const res = await call('/portaladmin/security/users/createUser', validUser());
    expect(res.json.error.code).toBe(499);
  });
});

describe('community/users/{u}', () => {
  it('shows private fields to the user and only public ones to other members', async () => {
    const a = await newUser();
    const b = await newUser();
    const own = await call(
      `/sharing/rest/community/users/${a.username}`,
      { token: a.token },
      { method: 'GET' },
    );
    expect(own.json.email).toBe(`${a.username}@example.com`);
    expect(own.json.privileges).toContain('portal:user:createItem');
    const other = await call(
      `/sharing/rest/community/users/${a.username}`,
      { token: b.token },
      { method: 'GET' },
    );
    expect(other.json.username).toBe(a.username);
    expect(other.json.email).toBeUndefined();
  });

  it('reports an unknown user', async () => {
    const res = await call('/sharing/rest/community/users/nobody-here', { token: await admin() });
    expect(res.json.error.message).toBe('User not found.');
  });

  it('requires a token', async () => {
    const res = await call(`/sharing/rest/community/users/${stack().admin.username}`);
    expect(res.json.error.code).toBe(499);
  });
});

describe('community/users/{u}/update', () => {
  it('changes profile fields', async () => {
    const u = await newUser();
    const res = await call(`/sharing/rest/community/users/${u.username}/update`, {
      token: u.token,
      firstName: 'Grace',
      lastName: 'Hopper',
      description: 'Compilers',
    });
    expect(res.json).toEqual({ success: true, username: u.username });
    const info = await call(`/sharing/rest/community/users/${u.username}`, { token: u.token });
    expect(info.json.fullName).toBe('Grace Hopper');
    expect(info.json.description).toBe('Compilers');
  });

  it('changes the password when the old one is given', async () => {
    const u = await newUser();
    const next = 'An0ther-Strong-Passw0rd!-abcdef';
    const res = await call(`/sharing/rest/community/users/${u.username}/update`, {
      token: u.token,
      oldPassword: u.password,
      password: next,
    });
    expect(res.json.success).toBe(true);
    expect(await signIn(u.username, next)).toMatch(/^[A-Za-z0-9_-]+$/);
    await expect(signIn(u.username, u.password)).rejects.toThrow(/Invalid username or password/);
  });

  it('refuses a password change by the user without the old password', async () => {
    const u = await newUser();
    const res = await call(`/sharing/rest/community/users/${u.username}/update`, {
      token: u.token,
      password: 'An0ther-Strong-Passw0rd!-abcdef',
    });
    expect(res.json.error.details[0]).toMatch(/oldPassword/);
  });

  it('lets an administrator set a password without the old one', async () => {
    const u = await newUser();
    const next = 'Adm1n-Set-Passw0rd!-abcdefghijk';
    const res = await call(`/sharing/rest/community/users/${u.username}/update`, {
      token: await admin(),
      password: next,
    });
    expect(res.json.success).toBe(true);
    expect(await signIn(u.username, next)).toBeTruthy();
  });

  it('refuses a new password the policy rejects', async () => {
    const u = await newUser();
    const res = await call(`/sharing/rest/community/users/${u.username}/update`, {
      token: u.token,
      oldPassword: u.password,
      password: 'onlyletters',
    });
    expect(res.json.error.details.join(' ')).toMatch(/at least \d+ digit/);
  });

  it('refuses changes to another member by a non-administrator', async () => {
    const a = await newUser();
    const b = await newUser();
    const res = await call(`/sharing/rest/community/users/${a.username}/update`, {
      token: b.token,
      firstName: 'X',
    });
    expect(res.json.error.code).toBe(403);
    const info = await call(`/sharing/rest/community/users/${a.username}`, { token: a.token });
    expect(info.json.firstName).toBe('Test');
  });

  it('refuses an invalid email', async () => {
    const u = await newUser();
    const res = await call(`/sharing/rest/community/users/${u.username}/update`, {
      token: u.token,
      email: 'nope',
    });
    expect(res.json.error.details[0]).toMatch(/email/);
  });
});

describe('community/users/{u}/delete', () => {
  it('deletes a user who owns nothing, who can then no longer sign in', async () => {
    const u = await newUser();
    const res = await call(`/sharing/rest/community/users/${u.username}/delete`, { token: await admin() });
    expect(res.json).toEqual({ success: true, username: u.username });
    await expect(signIn(u.username, u.password)).rejects.toThrow(/Invalid username or password/);
  });

  it('is refused while the user owns items', async () => {
    const u = await newUser();
    await addTextItem(u);
    const res = await call(`/sharing/rest/community/users/${u.username}/delete`, { token: await admin() });
    expect(res.json.error.details[0]).toMatch(/still owns 1 item/);
  });

  it('is refused while the user owns groups', async () => {
    const u = await newUser();
    await call('/sharing/rest/community/createGroup', { token: u.token, title: unique('group ') });
    const res = await call(`/sharing/rest/community/users/${u.username}/delete`, { token: u.token });
    expect(res.json.error.details[0]).toMatch(/1 group/);
  });

  it('is refused to another member', async () => {
    const a = await newUser();
    const b = await newUser();
    const res = await call(`/sharing/rest/community/users/${a.username}/delete`, { token: b.token });
    expect(res.json.error.code).toBe(403);
  });
});

describe('user listings', () => {
  it('lists the portal users with paging', async () => {
    await newUser();
    const first = await call(
      '/sharing/rest/portals/self/users',
      { token: await admin(), num: '1' },
      { method: 'GET' },
    );
    expect(first.json.num).toBe(1);
    expect(first.json.total).toBeGreaterThan(1);
    expect(first.json.nextStart).toBe(2);
    expect(first.json.users[0].username).toBeTruthy();
  });

  it('finds users by a word of their name through community/users', async () => {
    const u = await newUser();
    const res = await call('/sharing/rest/community/users', { token: await admin(), q: u.username });
    expect(res.json.results.map((r: { username: string }) => r.username)).toEqual([u.username]);
    expect(res.json.total).toBe(1);
  });
});
