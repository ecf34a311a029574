import { describe, expect, it } from 'vitest';
import { call, signIn, stack } from './support/portal-client.js';

describe('portal sign-in basics', () => {
  it('describes the token service at sharing/rest/info without a currentVersion', async () => {
    const { json } = await call('/sharing/rest/info', {}, { method: 'GET' });
    expect(json.authInfo).toEqual({
      tokenServicesUrl: `${stack().baseUrl}/sharing/rest/generateToken`,
      isTokenBasedSecurity: true,
    });
    expect(json.currentVersion).toBeUndefined();
  });

  it('describes the federated server at rest/info with the portal as owning system', async () => {
    const { json } = await call('/rest/info', {}, { method: 'GET' });
    expect(json.owningSystemUrl).toBe(stack().baseUrl);
    expect(json.authInfo.tokenServicesUrl).toBe(`${stack().baseUrl}/sharing/rest/generateToken`);
    expect(typeof json.currentVersion).toBe('number');
  });

  it('issues a token whose expiry follows the requested minutes', async () => {
    const before = Date.now();
    const { json } = await call('/sharing/rest/generateToken', {
      username: stack().admin.username,
      password: stack().admin.password,
      expiration: '30',
      client: 'referer',
      referer: 'https://app.example.com',
    });
    expect(json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(json.expires).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(json.expires).toBeLessThanOrEqual(Date.now() + 30 * 60_000);
  });

  it('refuses a wrong password with the portal error, HTTP 200', async () => {
    const res = await call('/sharing/rest/generateToken', {
      username: stack().admin.username,
      password: 'wrong',
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      error: { code: 400, message: 'Unable to generate token.', details: ['Invalid username or password.'] },
    });
  });

  it('refuses generateToken over GET so passwords stay out of URLs', async () => {
    const res = await call(
      '/sharing/rest/generateToken',
      { username: stack().admin.username, password: stack().admin.password },
      { method: 'GET' },
    );
    expect(res.json.error.code).toBe(400);
    expect(res.json.token).toBeUndefined();
  });

  it('accepts the token as a parameter, as X-Esri-Authorization and as Authorization', async () => {
    const token = await signIn();
    const viaParam = await call('/sharing/rest/community/self', { token });
    const viaEsri = await call(
      '/sharing/rest/community/self',
      {},
      { headers: { 'X-Esri-Authorization': `Bearer ${token}` } },
    );
    const viaAuth = await call(
      '/sharing/rest/community/self',
      {},
      { headers: { Authorization: `Bearer ${token}` } },
    );
    for (const res of [viaParam, viaEsri, viaAuth]) {
      expect(res.json.username).toBe(stack().admin.username);
      expect(res.json.role).toBe('org_admin');
    }
  });

  it('answers 499 Token Required when community/self is asked without a token', async () => {
    const { json } = await call('/sharing/rest/community/self');
    expect(json.error).toMatchObject({ code: 499, message: 'Token Required' });
  });

  it('answers 498 Invalid token for a forged token, even on a public resource', async () => {
    const forged = 'A'.repeat(43);
    expect((await call('/sharing/rest/community/self', { token: forged })).json.error).toMatchObject({
      code: 498,
      message: 'Invalid token.',
    });
    expect((await call('/sharing/rest/info', { token: forged })).json.error.code).toBe(498);
  });

  it('rejects a referer-bound token used from another referer', async () => {
    const { json } = await call('/sharing/rest/generateToken', {
      username: stack().admin.username,
      password: stack().admin.password,
      client: 'referer',
      referer: 'https://good.example.com',
    });
    const ok = await call(
      '/sharing/rest/community/self',
      { token: json.token },
      { headers: { Referer: 'https://good.example.com/app' } },
    );
    const bad = await call(
      '/sharing/rest/community/self',
      { token: json.token },
      { headers: { Referer: 'https://evil.example.com' } },
    );
    expect(ok.json.username).toBe(stack().admin.username);
    expect(bad.json.error.code).toBe(498);
  });

  it('embeds the signed-in user in portals/self and keeps the org id stable', async () => {
    const token = await signIn();
    const anonymous = await call('/sharing/rest/portals/self', {}, { method: 'GET' });
    const signedIn = await call('/sharing/rest/portals/self', { token }, { method: 'GET' });
    expect(anonymous.json.user).toBeUndefined();
    expect(signedIn.json.user.username).toBe(stack().admin.username);
    expect(signedIn.json.id).toBe(anonymous.json.id);
    expect(signedIn.json.isPortal).toBe(true);
    const byId = await call(`/sharing/rest/portals/${anonymous.json.id}`, {}, { method: 'GET' });
    expect(byId.json.id).toBe(anonymous.json.id);
  });

  it('pretty-prints with f=pjson and wraps JSONP with callback', async () => {
    const pretty = await call('/sharing/rest/info', { f: 'pjson' }, { method: 'GET' });
    expect(pretty.text).toContain('\n  "owningSystemUrl"');
    const jsonp = await call('/sharing/rest/info', { callback: 'cb' }, { method: 'GET' });
    expect(jsonp.text.startsWith('cb({')).toBe(true);
  });

  it('rejects an unknown f value', async () => {
    const { json } = await call('/sharing/rest/info', { f: 'xml' });
    expect(json.error.code).toBe(400);
  });

  it('answers unknown routes with a clear 404 and unknown methods with 405', async () => {
    const missing = await call('/sharing/rest/nothing/here', {}, { method: 'GET' });
    expect(missing.status).toBe(404);
    expect(missing.json.error.details[0]).toContain('/sharing/rest/nothing/here');
    const res = await fetch(`${stack().baseUrl}/sharing/rest/info`, { method: 'DELETE' });
    expect(res.status).toBe(405);
  });
});
