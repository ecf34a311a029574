import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteGeocoder } from '../../../activities/publish/remote-geocoder.js';
import { loadConfig } from '../../../infra/config.js';
import { allowedUrl, createOutboundFetch, type OutboundPolicy } from '../../../infra/outbound-fetch.js';

const POLICY: Omit<OutboundPolicy, 'allowedHosts'> = {
  connectTimeoutMs: 1_000,
  readTimeoutMs: 500,
  maxResponseBytes: 1024 * 1024,
};

describe('outbound fetches', { timeout: 30_000 }, () => {
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/json') return res.end(JSON.stringify({ ok: true }));
      if (path === '/redirect-out') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      }
      if (path === '/redirect-in') {
        res.writeHead(302, { location: '/json' });
        return res.end();
      }
      if (path === '/huge') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(Buffer.alloc(2 * 1024 * 1024));
      }
      if (path === '/stall') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"locations":[');
        return; // never ends
      }
      if (path.startsWith('/secret')) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        return res.end('SECRET internal configuration: password=hunter2');
      }
      res.writeHead(404);
      res.end();
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const allowing = (allowedHosts: string[]) => createOutboundFetch({ ...POLICY, allowedHosts });

  it('allows nothing by default: a URL at the database port is refused without connecting', async () => {
    const config = loadConfig({});
    expect(config.outbound.allowedHosts).toEqual([]);
    const before = connections;
    await expect(createOutboundFetch(config.outbound)('http://127.0.0.1:5432/')).rejects.toMatchObject({
      message: 'The URL is not allowed.',
      details: [
        'http://127.0.0.1:5432/: the host 127.0.0.1:5432 is not among the hosts this server may contact. An administrator can allow its host with OUTBOUND_ALLOWED_HOSTS.',
      ],
    });
    await expect(createOutboundFetch(config.outbound)(`http://127.0.0.1:${port}/json`)).rejects.toMatchObject(
      {
        message: 'The URL is not allowed.',
      },
    );
    expect(connections).toBe(before);
  });

  it('refuses a cloud metadata address, other schemes and credentials in the URL', () => {
    const policy = { allowedHosts: ['geocode.example.com'] };
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
      'http://user:pw@geocode.example.com/x',
      'http://geocode.example.com.evil.net/x',
    ]) {
      expect(() => allowedUrl(url, policy)).toThrow('The URL is not allowed.');
    }
    expect(allowedUrl('https://GEOCODE.example.com/arcgis', policy).host).toBe('geocode.example.com');
  });

  it('takes a host:port entry for that port only', () => {
    const policy = { allowedHosts: ['127.0.0.1:8443'] };
    expect(() => allowedUrl('https://127.0.0.1:8443/x', policy)).not.toThrow();
    expect(() => allowedUrl('http://127.0.0.1:5432/x', policy)).toThrow('The URL is not allowed.');
  });

  it('fetches from an allowed host, following a redirect that stays allowed', async () => {
    const res = await allowing(['127.0.0.1'])(`http://127.0.0.1:${port}/redirect-in`);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('refuses a redirect to a host that is not allowed', async () => {
    await expect(allowing(['127.0.0.1'])(`http://127.0.0.1:${port}/redirect-out`)).rejects.toMatchObject({
      message: 'The URL is not allowed.',
    });
  });

  it('cuts off an answer larger than the cap', async () => {
    await expect(allowing(['127.0.0.1'])(`http://127.0.0.1:${port}/huge`)).rejects.toMatchObject({
      details: [`http://127.0.0.1:${port}/huge: the answer is larger than 1048576 bytes.`],
    });
  });

  it('gives up on an answer that stops arriving after the read timeout', async () => {
    const started = performance.now();
    await expect(allowing(['127.0.0.1'])(`http://127.0.0.1:${port}/stall`)).rejects.toMatchObject({
      details: [`http://127.0.0.1:${port}/stall: no answer for 0.5 seconds.`],
    });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('fails a connection that cannot be made within the connect timeout, however the network refuses it', async () => {
    // A TEST-NET-1 address (RFC 5737): nothing answers there; where packets are dropped the connection
    // hangs and the 300 ms connect timeout ends it, where they are rejected it fails at once.
    const fetchFar = createOutboundFetch({ ...POLICY, connectTimeoutMs: 300, allowedHosts: ['192.0.2.1'] });
    const started = performance.now();
    await expect(fetchFar('http://192.0.2.1/')).rejects.toMatchObject({
      message: 'The remote service could not be read.',
    });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("never puts an internal service's answer into the geocoder's error", async () => {
    const geocoder = createRemoteGeocoder(
      `http://127.0.0.1:${port}/secret/GeocodeServer`,
      allowing(['127.0.0.1']),
    );
    const error = await geocoder.geocodeBatch([{ objectId: 1, address: '1 Main St' }]).catch((e) => e);
    expect(error.message).toBe('The geocode service failed.');
    expect(JSON.stringify(error.details)).not.toContain('SECRET');
    expect(error.details).toEqual([`http://127.0.0.1:${port}/secret/GeocodeServer?f=json: HTTP 500`]);
  });
});
