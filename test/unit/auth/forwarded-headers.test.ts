import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressBlock, clientAddressOf } from '../../../api/client-address.js';
import { type InProcessApp, inProcessApp } from './in-process-app.js';

const headers = (h: Record<string, string>) => (name: string) => h[name];

describe('the client address', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For claims', () => {
    expect(clientAddressOf('10.0.0.9', headers({ 'x-forwarded-for': '203.0.113.5' }), 0)).toBe('10.0.0.9');
  });

  it('is what the one trusted proxy saw: the last X-Forwarded-For entry', () => {
    const h = headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.5' });
    expect(clientAddressOf('10.0.0.9', h, 1)).toBe('203.0.113.5');
  });

  it('counts back as many entries as proxies are trusted', () => {
    const h = headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.5, 10.0.0.2' });
    expect(clientAddressOf('10.0.0.9', h, 2)).toBe('203.0.113.5');
  });

  it('falls back to the socket for a forwarded value that is not an address', () => {
    expect(clientAddressOf('10.0.0.9', headers({ 'x-forwarded-for': 'unknown' }), 1)).toBe('10.0.0.9');
  });

  it('writes IPv4-mapped IPv6 addresses as IPv4', () => {
    expect(clientAddressOf('::ffff:192.0.2.7', headers({}), 0)).toBe('192.0.2.7');
  });
});

describe('the address block sign-ins are counted by', () => {
  it('is the address itself for IPv4', () => {
    expect(addressBlock('203.0.113.5')).toBe('203.0.113.5');
  });

  it('is the /64 for IPv6, however the address is written', () => {
    expect(addressBlock('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(addressBlock('2001:0DB8:0000:0001:ffff:0:0:9')).toBe('2001:db8:0:1::/64');
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('::1')).toBe('0:0:0:0::/64');
  });
});

describe('links behind a proxy', { timeout: 60_000 }, () => {
  const forwarded = { 'x-forwarded-host': 'gis.example.com', 'x-forwarded-proto': 'https' };
  const info = (app: InProcessApp, extra: Record<string, string> = {}) =>
    app.call('/sharing/rest/info', {}, { method: 'GET', headers: { ...forwarded, ...extra } });
  let direct: InProcessApp;
  let proxied: InProcessApp;
  let pinned: InProcessApp;

  beforeAll(async () => {
    [direct, proxied, pinned] = await Promise.all([
      inProcessApp(),
      inProcessApp({ TRUST_PROXY: 'true' }),
      inProcessApp({ TRUST_PROXY: 'true', PUBLIC_URL: 'https://maps.example.org' }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([direct?.close(), proxied?.close(), pinned?.close()]);
  });

  it('come from the request itself when no proxy is trusted', async () => {
    const res = await info(direct, { host: 'portal.internal:8080' });
    expect(res.json.authInfo.tokenServicesUrl).toBe('http://portal.internal:8080/sharing/rest/generateToken');
  });

  it("come from a trusted proxy's X-Forwarded-Host and -Proto", async () => {
    const res = await info(proxied);
    expect(res.json.owningSystemUrl).toBe('https://gis.example.com');
  });

  it('ignore a forwarded host that is not a host name', async () => {
    const res = await info(proxied, { 'x-forwarded-host': 'evil.example/<script>', host: 'portal.internal' });
    expect(res.json.owningSystemUrl).toBe('https://portal.internal');
  });

  it('come from PUBLIC_URL when it is set, whatever the headers say', async () => {
    const res = await info(pinned);
    expect(res.json.owningSystemUrl).toBe('https://maps.example.org');
  });

  it("bind a requestip token to the trusted proxy's client, not to the proxy", async () => {
    await proxied.addUser('olga', 'Right-Passw0rd-1');
    const via = (client: string) => ({ from: '10.9.9.9', headers: { 'x-forwarded-for': client } });
    const t = (
      await proxied.call(
        '/sharing/rest/generateToken',
        { username: 'olga', password: 'Right-Passw0rd-1' },
        via('203.0.113.5'),
      )
    ).json.token as string;
    const self = (client: string) => proxied.call('/sharing/rest/community/self', { token: t }, via(client));
    expect((await self('203.0.113.5')).json.username).toBe('olga');
    expect((await self('203.0.113.6')).json.error.code).toBe(498);
  });
});
