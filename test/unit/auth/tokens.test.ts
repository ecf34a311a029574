import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type InProcessApp, inProcessApp } from './in-process-app.js';

const PASSWORD = 'Right-Passw0rd-1';

describe('tokens', { timeout: 60_000 }, () => {
  let app: InProcessApp;
  const token = async (params: Record<string, string>, from = '10.0.0.1', username = 'kim') => {
    const res = await app.call(
      '/sharing/rest/generateToken',
      { username, password: PASSWORD, ...params },
      { from },
    );
    if (!res.json.token) throw new Error(JSON.stringify(res.json));
    return res.json as { token: string; expires: number };
  };
  const self = (t: string, from = '10.0.0.1') =>
    app.call('/sharing/rest/community/self', { token: t }, { from });

  beforeAll(async () => {
    app = await inProcessApp();
    for (const name of ['kim', 'lee', 'max', 'ned']) await app.addUser(name, PASSWORD);
  }, 120_000);
  afterAll(() => app?.close());

  it('binds a client=requestip token to the address that asked for it', async () => {
    const { token: t } = await token({ client: 'requestip' }, '10.0.0.1');
    expect((await self(t, '10.0.0.1')).json.username).toBe('kim');
    expect((await self(t, '10.0.0.2')).json.error).toMatchObject({ code: 498, message: 'Invalid token.' });
  });

  it('binds a client=ip token to the address given, wherever it was asked from', async () => {
    const { token: t } = await token({ client: 'ip', ip: '192.0.2.7' }, '10.0.0.1');
    expect((await self(t, '192.0.2.7')).json.username).toBe('kim');
    expect((await self(t, '10.0.0.1')).json.error.code).toBe(498);
    // An IPv4 client reaching an IPv6 socket arrives as ::ffff:a.b.c.d: the same address.
    expect((await self(t, '::ffff:192.0.2.7')).json.username).toBe('kim');
  });

  it('refuses client=ip without a valid address', async () => {
    const res = await app.call('/sharing/rest/generateToken', {
      username: 'kim',
      password: PASSWORD,
      client: 'ip',
      ip: 'gis.example.com',
    });
    expect(res.json.error.details).toEqual(["'ip' must be an IPv4 or IPv6 address, not 'gis.example.com'."]);
  });

  it('revokes every token of a user who changes the password', async () => {
    const a = (await token({}, '10.0.0.1', 'lee')).token;
    const b = (await token({ client: 'referer', referer: 'https://app.example.com' }, '10.0.0.3', 'lee'))
      .token;
    const changed = await app.call('/sharing/rest/community/users/lee/update', {
      token: a,
      oldPassword: PASSWORD,
      password: 'Changed-Passw0rd-2',
    });
    expect(changed.json).toEqual({ success: true, username: 'lee' });
    expect((await self(a)).json.error.code).toBe(498);
    const fromApp = await app.call(
      '/sharing/rest/community/self',
      { token: b },
      { headers: { referer: 'https://app.example.com/map' } },
    );
    expect(fromApp.json.error.code).toBe(498);
  });

  it('revokes the tokens of a user whose password an administrator resets', async () => {
    const mine = (await token({}, '10.0.0.1', 'max')).token;
    const admin = (
      await app.call('/sharing/rest/generateToken', { username: ADMIN.username, password: ADMIN.password })
    ).json.token as string;
    const reset = await app.call('/sharing/rest/community/users/max/update', {
      token: admin,
      password: 'Reset-Passw0rd-3',
    });
    expect(reset.json.success).toBe(true);
    expect((await self(mine)).json.error.code).toBe(498);
    expect((await self(admin)).json.username).toBe(ADMIN.username);
  });

  it('never lets an exchanged server token outlive the token it was made from', async () => {
    const parent = await token({ expiration: '30' });
    const server = await app.call('/sharing/rest/generateToken', {
      token: parent.token,
      serverUrl: 'http://portal.test/rest/services',
      expiration: '600',
    });
    expect(server.json.expires).toBe(parent.expires);
    const shorter = await app.call('/sharing/rest/generateToken', {
      token: parent.token,
      serverUrl: 'http://portal.test/rest/services',
      expiration: '10',
    });
    expect(shorter.json.expires).toBe(app.clock.now + 10 * 60_000);
    app.clock.now += 30 * 60_000 + 1;
    expect((await self(server.json.token)).json.error.code).toBe(498);
    app.clock.now -= 30 * 60_000 + 1;
  });

  it('revokes a token through oauth2/revokeToken, and the server tokens made from it', async () => {
    const parent = (await token({})).token;
    const server = (
      await app.call('/sharing/rest/generateToken', { token: parent, serverUrl: 'http://portal.test/rest' })
    ).json.token as string;
    expect((await self(server)).json.username).toBe('kim');
    const revoked = await app.call('/sharing/rest/oauth2/revokeToken', {
      client_id: 'app',
      auth_token: parent,
    });
    expect(revoked.json).toEqual({ success: true });
    expect((await self(parent)).json.error.code).toBe(498);
    expect((await self(server)).json.error.code).toBe(498);
    // The same answer for a token that is no longer there, so the route tells nothing about tokens.
    expect((await app.call('/sharing/rest/oauth2/revokeToken', { auth_token: parent })).json).toEqual({
      success: true,
    });
  });

  it('signs out the token a request carries through oauth2/signout', async () => {
    const t = (await token({}, '10.0.0.1', 'ned')).token;
    const other = (await token({}, '10.0.0.1', 'ned')).token;
    expect((await app.call('/sharing/rest/oauth2/signout', { token: t })).json).toEqual({ success: true });
    expect((await self(t)).json.error.code).toBe(498);
    expect((await self(other)).json.username).toBe('ned');
  });

  it('redirects after signing out only to a page of this portal', async () => {
    const t = (await token({})).token;
    const away = await app.call('/sharing/rest/oauth2/signout', {
      token: t,
      redirect_uri: 'https://evil.example/',
    });
    expect(away.json.error.details).toEqual(["'redirect_uri' must be a page of this portal."]);
    const home = await app.call('/sharing/rest/oauth2/signout', {
      token: t,
      redirect_uri: '/home/index.html',
    });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('http://portal.test/home/index.html');
    expect((await self(t)).json.error.code).toBe(498);
  });

  it('asks for a token to sign out', async () => {
    expect((await app.call('/sharing/rest/oauth2/signout', {})).json.error.code).toBe(499);
  });
});
