/**
 * The lean tile path (api/tile-fast-path.ts): tiles answered ahead of the app's parameter parsing and
 * authentication keep every behaviour of the full stack: tokens from the query or Bearer headers, 498
 * for a refused token, 499/403 for a private service, ETag/304, Cache-Control per audience, CORS, a
 * 404 error body for a missing tile, gzip vector tiles, and a rebuilt cache's new generation.
 */
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { newUser, type TestUser } from '../portal/portal-helpers.js';
import { uniqueName } from '../publish/publish-client.js';
import { adminToken, call, signIn, stack } from '../support/portal-client.js';
import { pixelOf, publishFeatures, publishPackage, publishTiles } from './tile-client.js';

/** A package published as it is; the tests need it completed. */
async function publishedPackage(file: string, filetype: string, name: string): Promise<string> {
  const { service, status } = await publishPackage(file, filetype, name);
  if (status.status !== 'completed') throw new Error(`publish failed: ${JSON.stringify(status)}`);
  return service.serviceItemId as string;
}

const tileUrl = (name: string, path: string, query = '') =>
  `${stack().baseUrl}/rest/services/Hosted/${name}/MapServer/tile/${path}${query}`;

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: number } }).error;

describe('tiles of a private Map Service (from a .tpkx)', () => {
  const name = uniqueName('lean_red');
  let outsider: TestUser;

  beforeAll(async () => {
    await publishedPackage('red.tpkx', 'tilePackage', name);
    outsider = await newUser();
  }, 120_000);

  it('serves its owner a tile with a token in the query, an ETag and private caching', async () => {
    const res = await fetch(tileUrl(name, '1/1/1', `?token=${await adminToken()}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600, must-revalidate');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-\d+-1-1-1"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // "PNG"
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
  });

  it('reads the token parameter in any case', async () => {
    const res = await fetch(tileUrl(name, '1/1/1', `?TOKEN=${await adminToken()}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });

  it('takes the token from an Authorization or X-Esri-Authorization Bearer header', async () => {
    for (const header of ['Authorization', 'X-Esri-Authorization']) {
      const res = await fetch(tileUrl(name, '1/1/1'), {
        headers: { [header]: `Bearer ${await adminToken()}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
  });

  it('answers 304 without a body when the client holds the tile, and the tile for another ETag', async () => {
    const token = await adminToken();
    const first = await fetch(tileUrl(name, '1/1/1', `?token=${token}`));
    const etag = first.headers.get('etag') ?? '';
    const again = await fetch(tileUrl(name, '1/1/1', `?token=${token}`), {
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, max-age=3600, must-revalidate');
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const other = await fetch(tileUrl(name, '1/1/1', `?token=${token}`), {
      headers: { 'If-None-Match': '"something-else"' },
    });
    expect(other.status).toBe(200);
  });

  it('asks an anonymous caller for a token (499) and refuses a user without access (403)', async () => {
    const anonymous = await fetch(tileUrl(name, '1/1/1'));
    expect(anonymous.status).toBe(200);
    expect(await errorOf(anonymous)).toMatchObject({ code: 499, message: 'Token Required' });
    const outside = await fetch(tileUrl(name, '1/1/1', `?token=${outsider.token}`));
    expect((await errorOf(outside)).code).toBe(403);
  });

  it('refuses an unknown token with 498, from the query or a header', async () => {
    expect((await errorOf(await fetch(tileUrl(name, '1/1/1', '?token=not-a-token')))).code).toBe(498);
    const header = await fetch(tileUrl(name, '1/1/1'), { headers: { Authorization: 'Bearer not-a-token' } });
    expect((await errorOf(header)).code).toBe(498);
  });

  it('refuses a referer-bound token from another referer with 498, every time', async () => {
    const { json } = await call('/sharing/rest/generateToken', {
      username: stack().admin.username,
      password: stack().admin.password,
      client: 'referer',
      referer: 'https://maps.example.com',
    });
    const from = (referer: string) =>
      fetch(tileUrl(name, '1/1/1', `?token=${json.token}`), { headers: { Referer: referer } });
    expect((await from('https://maps.example.com/viewer')).status).toBe(200);
    // The grant is remembered now; the referer is still checked on each request.
    expect((await errorOf(await from('https://evil.example.com/'))).code).toBe(498);
    expect((await from('https://maps.example.com/viewer')).headers.get('content-type')).toBe('image/png');
  });

  it('answers a missing tile with a 404 and an error body, again and again', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(tileUrl(name, '1/0/1', `?token=${await adminToken()}`));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        error: {
          code: 404,
          message: 'Tile not found',
          details: ['The cache has no tile at level 1, row 0, column 1.'],
        },
      });
    }
    const outside = await fetch(tileUrl(name, '9/0/0', `?token=${await adminToken()}`));
    expect(outside.status).toBe(404);
  });

  it('reads a tile address as decimal digits only: 1/1/1 by any other spelling is no tile', async () => {
    const token = `?token=${await adminToken()}`;
    const at = async (address: string) => (await fetch(tileUrl(name, address, token))).status;
    expect(await at('1/1/1')).toBe(200);
    expect(await at('01/001/1')).toBe(200);
    for (const other of ['1/0x1/1', '1/1e0/1', '1/+1/1', '1/%201/1', '1/1.0/1', '0x1/1/1', '1/1/0b1'])
      expect({ other, status: await at(other) }).toEqual({ other, status: 404 });
  });

  it('sends browsers the CORS headers for their origin', async () => {
    const res = await fetch(tileUrl(name, '1/1/1', `?token=${await adminToken()}`), {
      headers: { Origin: 'https://app.example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toBe('Origin');
    // The same CORS headers as the routes behind the app's cors() middleware.
    const json = await fetch(`${stack().baseUrl}/rest/services/Hosted/${name}/MapServer?f=json`, {
      headers: { Origin: 'https://app.example.com', Authorization: `Bearer ${await adminToken()}` },
    });
    for (const h of ['access-control-allow-origin', 'access-control-allow-credentials', 'vary'])
      expect(res.headers.get(h)).toBe(json.headers.get(h));
  });

  it('leaves a browser preflight to the cors middleware', async () => {
    const res = await fetch(tileUrl(name, '1/1/1'), {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('answers from memory as it answered the first time, and as the full stack answers', async () => {
    // A token made now: its grant is not in memory yet, so the first request reads it.
    const { json } = await call('/sharing/rest/generateToken', {
      username: stack().admin.username,
      password: stack().admin.password,
      client: 'requestip',
    });
    const viewer = { token: json.token as string };
    const wire = async (res: Response) => ({
      status: res.status,
      headers: [...res.headers].filter(([h]) => h !== 'date'),
      body: [...new Uint8Array(await res.arrayBuffer())],
    });
    const asks: [string, RequestInit][] = [
      [`1/1/1?token=${viewer.token}`, {}],
      [`1/1/1?token=${viewer.token}`, { method: 'HEAD', headers: { Origin: 'https://app.example.com' } }],
      [`1/0/1?token=${viewer.token}`, {}],
      ['1/1/1', { headers: { Authorization: `Bearer ${outsider.token}` } }],
    ];
    for (const [path, init] of asks) {
      const first = await wire(await fetch(tileUrl(name, path), init));
      const again = await wire(await fetch(tileUrl(name, path), init));
      expect(again).toEqual(first);
      // Two slashes are not the lean path's: the app's MapServer route answers behind cors() and auth.
      const full = await wire(
        await fetch(`${stack().baseUrl}//rest/services/Hosted/${name}/MapServer/tile/${path}`, init),
      );
      expect(full).toEqual(first);
    }
    const etag = (await fetch(tileUrl(name, `1/1/1?token=${viewer.token}`))).headers.get('etag') ?? '';
    const held = { headers: { 'If-None-Match': etag } };
    const notModified = await wire(await fetch(tileUrl(name, `1/1/1?token=${viewer.token}`), held));
    expect(notModified.status).toBe(304);
    const fullNotModified = await wire(
      await fetch(
        `${stack().baseUrl}//rest/services/Hosted/${name}/MapServer/tile/1/1/1?token=${viewer.token}`,
        held,
      ),
    );
    expect(fullNotModified).toEqual(notModified);
  });

  it('answers HEAD with the headers of the tile and no body', async () => {
    const res = await fetch(tileUrl(name, '1/1/1', `?token=${await adminToken()}`), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('etag')).toMatch(/-1-1-1"$/);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('tiles of a public Map Service', () => {
  const name = uniqueName('lean_public');

  beforeAll(async () => {
    const id = await publishedPackage('red.tpkx', 'tilePackage', name);
    const owner = stack().admin.username;
    const shared = await call(`/sharing/rest/content/users/${owner}/items/${id}/share`, {
      token: await adminToken(),
      everyone: 'true',
    });
    expect(shared.json.itemId).toBe(id);
  }, 120_000);

  it('serves anonymous callers, and lets shared caches keep the tile', async () => {
    const res = await fetch(tileUrl(name, '1/1/1'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600, must-revalidate');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('a public tile answered again from memory (the socket front replays it)', () => {
  const name = uniqueName('lean_replayed');
  let id = '';
  const owner = () => stack().admin.username;
  const share = async (everyone: boolean) => {
    const shared = await call(`/sharing/rest/content/users/${owner()}/items/${id}/share`, {
      token: await adminToken(),
      everyone: String(everyone),
      org: 'false',
    });
    expect(shared.json.itemId).toBe(id);
  };

  beforeAll(async () => {
    id = await publishedPackage('red.tpkx', 'tilePackage', name);
    await share(true);
  }, 120_000);

  it('stops once the service is no longer shared, within the time the access answer is remembered', async () => {
    // One kept-alive connection that carries tile GETs alone stays with the socket front, which replays
    // the same request head; fetch's shared pool would have sent other requests first (those connections
    // go to Node's server, and the lean path answers their tiles).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await getOn(agent, tileUrl(name, '1/1/1'));
      expect(first.headers['content-type']).toBe('image/png');
      for (let i = 0; i < 20; i++) {
        const again = await getOn(agent, tileUrl(name, '1/1/1'));
        expect(again.headers.etag).toBe(first.headers.etag);
        expect(again.body.equals(first.body)).toBe(true);
      }
      await share(false);
      const unshared = Date.now();
      let res = await getOn(agent, tileUrl(name, '1/1/1'));
      while (res.headers['content-type'] === 'image/png' && Date.now() - unshared < 15_000) {
        await new Promise((r) => setTimeout(r, 50));
        res = await getOn(agent, tileUrl(name, '1/1/1'));
      }
      // An anonymous caller is asked for a token, as the full stack asks (the access answer is kept 2 s
      // and looked up again while in use; the replay holds no longer than that answer does).
      expect(JSON.parse(res.body.toString()).error.code).toBe(499);
      expect(Date.now() - unshared).toBeLessThan(6_000);
    } finally {
      agent.destroy();
    }
  }, 60_000);
});

/** A GET on `agent`'s connections: status, headers and the whole body. */
function getOn(agent: Agent, url: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('tiles of a Vector Tile Service (from a .vtpk)', () => {
  const name = uniqueName('lean_roads');
  const url = (path: string) =>
    `${stack().baseUrl}/rest/services/Hosted/${name}/VectorTileServer/tile/${path}`;

  beforeAll(async () => {
    await publishedPackage('roads.vtpk', 'vectorTilePackage', name);
  }, 120_000);

  it('serves the stored gzip PBF as it is, saying Content-Encoding gzip', async () => {
    const res = await fetch(url('0/0/0.pbf'), {
      headers: { Authorization: `Bearer ${await adminToken()}`, 'Accept-Encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('etag')).toMatch(/-0-0-0"$/);
  });

  it('answers a missing vector tile with a 404 error body', async () => {
    const res = await fetch(url(`0/0/1.pbf?token=${await adminToken()}`));
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { details: string[] } }).error.details).toEqual([
      'The cache has no tile at level 0, row 0, column 1.pbf.',
    ]);
  });
});

describe('a rebuilt cache on the lean path', () => {
  const name = uniqueName('lean_rebuilt');

  beforeAll(async () => {
    const token = await adminToken();
    const features = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('lean_src'));
    const { status } = await publishTiles(token, features.serviceItemId, { name, levels: '11-11' });
    expect(status.status).toBe('completed');
  }, 300_000);

  it('serves the new generation once the cache row is looked up again, and no 304 for the old ETag', async () => {
    const token = await signIn();
    const { tile } = pixelOf(-87.6, 41.9, 11);
    const path = `11/${tile.row}/${tile.col}`;
    const before = await fetch(tileUrl(name, path, `?token=${token}`));
    expect(before.status).toBe(200);
    const oldTag = before.headers.get('etag') ?? '';
    const generation = Number(/^"[0-9a-f]+-(\d+)-/.exec(oldTag)?.[1]);
    const rebuild = await call(`/rest/services/Hosted/${name}/MapServer/updateTiles`, { token });
    expect(rebuild.json.success).toBe(true);
    let after: Response | undefined;
    for (let i = 0; i < 200; i++) {
      after = await fetch(tileUrl(name, path, `?token=${token}`), { headers: { 'If-None-Match': oldTag } });
      if (after.status === 200 && after.headers.get('content-type') === 'image/png') break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(after?.status).toBe(200);
    expect(after?.headers.get('etag')).toMatch(
      new RegExp(`^"[0-9a-f]+-${generation + 1}-${path.replaceAll('/', '-')}"$`),
    );
  }, 120_000);

  it('stops replaying the old generation on a kept-alive connection once the cache is rebuilt', async () => {
    const token = await signIn();
    const { tile } = pixelOf(-87.6, 41.9, 11);
    const url = tileUrl(name, `11/${tile.row}/${tile.col}`, `?token=${token}`);
    // One connection carrying the same tile GET alone: the socket front answers it again from memory.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await getOn(agent, url);
      expect(first.status).toBe(200);
      for (let i = 0; i < 10; i++) expect((await getOn(agent, url)).headers.etag).toBe(first.headers.etag);
      const generation = Number(/^"[0-9a-f]+-(\d+)-/.exec(String(first.headers.etag))?.[1]);
      const rebuild = await call(`/rest/services/Hosted/${name}/MapServer/updateTiles`, { token });
      expect(rebuild.json.success).toBe(true);
      let res = await getOn(agent, url);
      for (let i = 0; i < 200 && res.headers.etag === first.headers.etag; i++) {
        await new Promise((r) => setTimeout(r, 300));
        res = await getOn(agent, url);
      }
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(Number(/^"[0-9a-f]+-(\d+)-/.exec(String(res.headers.etag))?.[1])).toBe(generation + 1);
    } finally {
      agent.destroy();
    }
  }, 120_000);
});
