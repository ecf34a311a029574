import { describe, expect, it } from 'vitest';
import { call, signIn } from '../support/portal-client.js';
import { admin, newUser, STRONG_PASSWORD, unique, withDatabase } from './portal-helpers.js';

// The policy is one for the whole portal and other files run alongside: every policy set here is one
// that STRONG_PASSWORD and the other tests' passwords satisfy, and the file ends with a reset.
const update = async (params: Record<string, string>, token?: string) =>
  call('/sharing/rest/portals/self/securityPolicy/update', { token: token ?? (await admin()), ...params });
const read = async () =>
  call('/sharing/rest/portals/self/securityPolicy', { token: await admin() }, { method: 'GET' });
const tryCreate = async (password: string) => {
  const username = unique('pol');
  return call('/portaladmin/security/users/createUser', {
    token: await admin(),
    username,
    password,
    email: `${username}@example.com`,
  });
};

const STRICT = {
  minLength: '12',
  minUpper: '2',
  minLower: '2',
  minLetter: '4',
  minDigit: '1',
  minOther: '2',
  historySize: '3',
  expirationInDays: '90',
};

describe.sequential('securityPolicy', () => {
  it('reads the default policy before any change', async () => {
    await call('/sharing/rest/portals/self/securityPolicy/reset', { token: await admin() });
    expect((await read()).json).toEqual({
      passwordPolicy: { type: 'default', minLength: 8, minLetter: 1, minDigit: 1, created: -1, modified: -1 },
    });
  });

  it('updates every field and reads them back', async () => {
    expect((await update(STRICT)).json).toEqual({ success: true });
    const policy = (await read()).json.passwordPolicy;
    expect(policy).toMatchObject({
      type: 'custom',
      minLength: 12,
      minUpper: 2,
      minLower: 2,
      minLetter: 4,
      minDigit: 1,
      minOther: 2,
      historySize: 3,
      expirationInDays: 90,
    });
    expect(policy.modified).toBeGreaterThan(0);
  });

  it.each([
    ['minLength', 'Ab-cd-e1F', /at least 12 characters/],
    ['minUpper', 'Abcdefghij-k1-', /2 upper-case letters/],
    ['minLower', 'ABCDEFGHIJ-K1-l', /2 lower-case letters/],
    ['minLetter', 'Ab-12345678-9c', /4 letters/],
    ['minOther', 'ABcdefghijk1-', /2 special/],
  ])('enforces %s on a new user', async (_rule, password, detail) => {
    const res = await tryCreate(password);
    expect(res.json.error.message).toMatch(/password policy/);
    expect(res.json.error.details.join(' ')).toMatch(detail);
  });

  it('accepts a password that meets every rule', async () => {
    expect((await tryCreate(STRONG_PASSWORD)).json).toEqual({ status: 'success' });
  });

  it('refuses a password among the last historySize passwords', async () => {
    const u = await newUser();
    // Each change revokes the user's tokens, so every change signs in afresh with the current password.
    const change = async (from: string, to: string) =>
      call(`/sharing/rest/community/users/${u.username}/update`, {
        token: await signIn(u.username, from),
        oldPassword: from,
        password: to,
      });
    const second = 'Second-Passw0rd!-abcdefghijklm';
    const third = 'Third-Passw0rd!-abcdefghijklmn';
    expect((await change(STRONG_PASSWORD, second)).json.success).toBe(true);
    expect((await change(second, third)).json.success).toBe(true);
    const reuse = await change(third, STRONG_PASSWORD);
    expect(reuse.json.error.details).toEqual(['Do not reuse any of your last 3 passwords.']);
    expect((await change(third, third)).json.error.details).toEqual([
      'Do not reuse any of your last 3 passwords.',
    ]);
  });

  it('forces a change of an expired password at the next sign-in', async () => {
    const u = await newUser();
    await withDatabase(
      (sql) =>
        sql`update users set password_changed_at = ${Date.now() - 91 * 86_400_000} where username = ${u.username}`,
    );
    const res = await call('/sharing/rest/generateToken', { username: u.username, password: u.password });
    expect(res.json.error.code).toBe(400);
    expect(res.json.error.messageCode).toBe('PASSWORD_EXPIRED');
    expect(res.json.error.message).toMatch(/password has expired and must be changed/);
    const next = 'Renewed-Passw0rd!-abcdefghijk';
    const changed = await call(`/sharing/rest/community/users/${u.username}/update`, {
      oldPassword: u.password,
      password: next,
    });
    expect(changed.json).toEqual({ success: true, username: u.username });
    expect(await signIn(u.username, next)).toBeTruthy();
  });

  it('refuses a tokenless password change with a wrong old password', async () => {
    const u = await newUser();
    const res = await call(`/sharing/rest/community/users/${u.username}/update`, {
      oldPassword: 'not-the-password',
      password: 'Renewed-Passw0rd!-abcdefghijk',
    });
    expect(res.json.error.details[0]).toMatch(/oldPassword/);
    expect(await signIn(u.username, u.password)).toBeTruthy();
  });

  it('takes an empty value as no requirement', async () => {
    await update({ minUpper: '', historySize: '' });
    const policy = (await read()).json.passwordPolicy;
    expect(policy.minUpper).toBeUndefined();
    expect(policy.historySize).toBeUndefined();
    expect(policy.minLower).toBe(2);
  });

  it.each([
    ['minLength', '7'],
    ['minLength', '1001'],
    ['minLength', 'ten'],
    ['minUpper', '0'],
    ['minLower', '-1'],
    ['minLetter', '0'],
    ['minDigit', '1.5'],
    ['minOther', '0'],
    ['expirationInDays', '0'],
    ['expirationInDays', '1096'],
    ['historySize', '0'],
    ['historySize', '25'],
  ])('refuses %s=%s, naming the field, and keeps the policy', async (field, value) => {
    const before = (await read()).json.passwordPolicy;
    const res = await update({ [field]: value });
    expect(res.json.error.message).toBe('Invalid security policy.');
    expect(res.json.error.details[0]).toContain(`'${field}'`);
    expect((await read()).json.passwordPolicy).toEqual(before);
  });

  it('accepts the upper bounds of expiry and history', async () => {
    expect((await update({ expirationInDays: '1095', historySize: '24' })).json.success).toBe(true);
    expect((await read()).json.passwordPolicy).toMatchObject({ expirationInDays: 1095, historySize: 24 });
  });

  it('is closed to non-administrators', async () => {
    const u = await newUser();
    expect((await update({ minLength: '9' }, u.token)).json.error.code).toBe(403);
    const readByMember = await call('/sharing/rest/portals/self/securityPolicy', { token: u.token });
    expect(readByMember.json.error.code).toBe(403);
    const reset = await call('/sharing/rest/portals/self/securityPolicy/reset', { token: u.token });
    expect(reset.json.error.code).toBe(403);
  });

  it('resets to the default policy', async () => {
    const res = await call('/sharing/rest/portals/self/securityPolicy/reset', { token: await admin() });
    expect(res.json).toEqual({ success: true });
    expect((await read()).json.passwordPolicy.type).toBe('default');
  });
});
