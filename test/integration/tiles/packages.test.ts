/** Tile packages published as they are: a .tpkx into a Map Service, a .vtpk into a Vector Tile Service. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../publish/publish-client.js';
import { adminToken, call, stack } from '../support/portal-client.js';
import { fetchTile, publishPackage, tilesFixture } from './tile-client.js';

describe('a .tpkx published as a Map Service', () => {
  const name = uniqueName('red_tiles');
  let service: Record<string, any>;
  let status: Record<string, any>;

  beforeAll(async () => {
    ({ service, status } = await publishPackage('red.tpkx', 'tilePackage', name));
  });

  it('completes as a Map Service item', () => {
    expect(status.status).toBe('completed');
    expect(service.type).toBe('Map Service');
    expect(service.serviceurl).toMatch(new RegExp(`/Hosted/${name}/MapServer$`));
  });

  it("serves the package's tiles byte for byte", async () => {
    const bundle = unzipSync(readFileSync(tilesFixture('red.tpkx')))['tile/L01/R0000C0000.bundle'];
    const res = await fetchTile(name, 1, 1, 1);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bundle).indexOf(Buffer.from(bytes))).toBeGreaterThan(0);
    expect((await fetchTile(name, 1, 0, 1)).status).toBe(404);
  });

  it("describes the package's levels in tileInfo", async () => {
    const res = await call(
      `/rest/services/Hosted/${name}/MapServer`,
      { token: await adminToken() },
      { method: 'GET' },
    );
    expect(res.json.tileInfo.lods.map((l: { level: number }) => l.level)).toEqual([0, 1, 2]);
  });

  it('serves tiles only: no export formats listed, and export says there is no data to draw', async () => {
    const token = await adminToken();
    const json = (await call(`/rest/services/Hosted/${name}/MapServer`, { token }, { method: 'GET' })).json;
    expect(json.capabilities).toMatch(/^Map,TilesOnly/);
    expect(json.supportedImageFormatTypes).toBeUndefined();
    const res = await call(
      `/rest/services/Hosted/${name}/MapServer/export`,
      { token, bbox: '0,0,1000,1000' },
      { method: 'GET' },
    );
    expect(res.json.error.code).toBe(400);
    expect(res.json.error.details[0]).toMatch(/tile cache imported from a package/);
  });
});

describe('a .vtpk published as a Vector Tile Service', () => {
  const name = uniqueName('roads');
  const base = () => `${stack().baseUrl}/rest/services/Hosted/${name}/VectorTileServer`;
  let status: Record<string, any>;

  beforeAll(async () => {
    ({ status } = await publishPackage('roads.vtpk', 'vectorTilePackage', name));
  });

  it('completes, and the service JSON is the package root.json', async () => {
    expect(status.status).toBe('completed');
    const res = await call(
      `/rest/services/Hosted/${name}/VectorTileServer`,
      { token: await adminToken() },
      { method: 'GET' },
    );
    expect(res.json.type).toBe('indexedVector');
    expect(res.json.tiles).toEqual(['tile/{z}/{y}/{x}.pbf']);
  });

  it('serves the gzip PBF tile with Content-Encoding gzip', async () => {
    const res = await fetch(`${base()}/tile/0/0/0.pbf?token=${await adminToken()}`, {
      headers: { 'Accept-Encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });

  it('answers a missing tile with a 404', async () => {
    expect((await fetch(`${base()}/tile/0/0/1.pbf?token=${await adminToken()}`)).status).toBe(404);
  });

  it('serves resources/styles/root.json from the package', async () => {
    const res = await fetch(`${base()}/resources/styles/root.json?token=${await adminToken()}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { version: number }).version).toBe(8);
  });
});

describe('a tile package the worker refuses', () => {
  it('fails its job with the 400 and the reason, as other bad input does', async () => {
    // red.tpkx with a root.json that has no tileInfo: the import activity refuses it as bad input.
    const files = unzipSync(readFileSync(tilesFixture('red.tpkx')));
    files['root.json'] = new TextEncoder().encode(JSON.stringify({ currentVersion: 10.9 }));
    const path = join(mkdtempSync(join(tmpdir(), 'tpkx-')), 'no-lods.tpkx');
    writeFileSync(path, zipSync(files));
    const { service, status } = await publishPackage(
      'no-lods.tpkx',
      'tilePackage',
      uniqueName('no_lods'),
      path,
    );
    expect(service.type).toBe('Map Service');
    expect(status.status).toBe('failed');
    expect(JSON.parse(status.statusMessage)).toEqual({
      code: 400,
      message: 'root.json has no tileInfo with lods.',
    });
  });
});
