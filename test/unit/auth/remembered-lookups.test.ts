import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_TTL_MS, mayWrite } from '../../../api/request-lookups.js';
import { deleteToken } from '../../../db/repositories/users.js';
import { tokenHash } from '../../../infra/secrets.js';
import { type InProcessApp, inProcessApp } from './in-process-app.js';

const PASSWORD = 'Right-Passw0rd-1';

describe('remembered token lookups', { timeout: 60_000 }, () => {
  let app: InProcessApp;
  const token = async (username: string) => {
    const res = await app.call('/sharing/rest/generateToken', { username, password: PASSWORD });
    if (!res.json.token) throw new Error(JSON.stringify(res.json));
    return res.json.token as string;
  };
  const self = (t: string) => app.call('/sharing/rest/community/self', { token: t }, { method: 'GET' });

  beforeAll(async () => {
    app = await inProcessApp();
    for (const name of ['ann', 'bob', 'cid']) await app.addUser(name, PASSWORD);
  }, 120_000);
  afterAll(() => app?.close());

  it('refuses a token revoked through the app at once, though its grant was remembered', async () => {
    const t = await token('ann');
    expect((await self(t)).json.username).toBe('ann');
    const revoked = await app.call('/sharing/rest/oauth2/revokeToken', { auth_token: t });
    expect(revoked.json).toEqual({ success: true });
    expect((await self(t)).json.error).toMatchObject({ code: 498 });
  });

  it('sees a token deleted by another process within LOOKUP_TTL_MS, and not before', async () => {
    const t = await token('bob');
    expect((await self(t)).json.username).toBe('bob');
    // Another process (a second API process) revokes it: this one still remembers the grant…
    await deleteToken(app.deps.database.db, tokenHash(t));
    expect((await self(t)).json.username).toBe('bob');
    // …until LOOKUP_TTL_MS after it was looked up.
    app.clock.now += LOOKUP_TTL_MS;
    expect((await self(t)).json.error).toMatchObject({ code: 498 });
  });

  it('refuses a remembered grant once its token has expired', async () => {
    const res = await app.call('/sharing/rest/generateToken', {
      username: 'cid',
      password: PASSWORD,
      expiration: '1',
    });
    const t = res.json.token as string;
    expect((await self(t)).json.username).toBe('cid');
    // Past the token's expiry (one minute) but inside the memory's bound, counted from a fresh lookup.
    app.clock.now += 60_000 - LOOKUP_TTL_MS / 2;
    expect((await self(t)).json.username).toBe('cid');
    app.clock.now += LOOKUP_TTL_MS / 2 + 1;
    expect((await self(t)).json.error).toMatchObject({ code: 498 });
  });
});

describe('mayWrite', () => {
  it('counts reads as reads: GET, and POSTs of query operations and SOAP', () => {
    expect(mayWrite('GET', '/sharing/rest/content/users/a/items/1/delete')).toBe(false);
    expect(mayWrite('POST', '/rest/services/Hosted/x/FeatureServer/0/query')).toBe(false);
    expect(mayWrite('POST', '/arcgis/rest/services/Hosted/x/MapServer/identify')).toBe(false);
    expect(mayWrite('POST', '/services/Hosted/x/MapServer')).toBe(false);
  });

  it('counts every other POST as a possible change', () => {
    expect(mayWrite('POST', '/sharing/rest/content/users/a/items/1/share')).toBe(true);
    expect(mayWrite('POST', '/sharing/rest/oauth2/revokeToken')).toBe(true);
    expect(mayWrite('POST', '/rest/admin/services/Hosted/x/FeatureServer/updateDefinition')).toBe(true);
    expect(mayWrite('POST', '/rest/services/Hosted/x/FeatureServer/0/applyEdits')).toBe(true);
  });
});
