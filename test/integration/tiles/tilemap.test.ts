/**
 * Tile maps (`tilemap/{level}/{row}/{col}/{width}/{height}`): the services that say `Tilemap` answer which
 * tiles of an area exist, exactly as asking for each tile would, for the area asked for (a map client
 * refuses an answer for another area), across bundles; with an ETag, under the service's access rules.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOrigin } from '../../../lib/tiles/compact-bundle.js';
import { uniqueName } from '../publish/publish-client.js';
import { adminToken, signIn, stack } from '../support/portal-client.js';
import { fetchTile, pixelOf, publishFeatures, publishPackage, publishTiles } from './tile-client.js';

interface TileMapBody {
  adjusted: boolean;
  location: { left: number; top: number; width: number; height: number };
  data: number[];
  error?: { code: number; details: string[] };
}

const service = (name: string, type = 'MapServer') =>
  `${stack().baseUrl}/rest/services/Hosted/${name}/${type}`;

async function tileMap(url: string, token?: string | null, headers: Record<string, string> = {}) {
  const t = token === undefined ? await adminToken() : token;
  const res = await fetch(`${url}?f=json${t ? `&token=${t}` : ''}`, { headers });
  return { res, body: res.status === 304 ? undefined : ((await res.json()) as TileMapBody) };
}

describe('the tile map of a compact Map Service cache', () => {
  const name = uniqueName('tilemap');
  // The fixture's three points at level 12, and a rectangle around their tiles (symbols reach a little).
  const tiles = [
    pixelOf(-87.65, 41.85, 12).tile,
    pixelOf(-87.6, 41.9, 12).tile,
    pixelOf(-87.7, 41.8, 12).tile,
  ];
  const near = {
    top: Math.min(...tiles.map((t) => t.row)) - 2,
    left: Math.min(...tiles.map((t) => t.col)) - 2,
    bottom: Math.max(...tiles.map((t) => t.row)) + 2,
    right: Math.max(...tiles.map((t) => t.col)) + 2,
  };

  beforeAll(async () => {
    const token = await signIn();
    const source = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('tilemap_src'));
    const { status } = await publishTiles(token, source.serviceItemId, { name, levels: '11-12' });
    expect(status.status).toBe('completed');
  });

  it('is offered in the service JSON', async () => {
    const json = (await (await fetch(`${service(name)}?f=json&token=${await adminToken()}`)).json()) as {
      capabilities: string;
    };
    expect(json.capabilities).toBe('Map,Query,Data,Tilemap');
  });

  it('says of every tile of an area across four bundles what asking for the tile says', async () => {
    // From just inside the bundle holding the first point's tile to just past its lower right corner.
    const { row0, col0 } = bundleOrigin(near.top, near.left);
    const top = Math.min(near.top, row0 + 125);
    const left = Math.min(near.left, col0 + 125);
    const height = row0 + 128 - top + 3;
    const width = col0 + 128 - left + 3;
    const { res, body } = await tileMap(`${service(name)}/tilemap/12/${top}/${left}/${width}/${height}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600, must-revalidate');
    expect(body?.adjusted).toBe(false);
    expect(body?.location).toEqual({ top, left, width, height });
    expect(body?.data).toHaveLength(width * height);
    const at = (row: number, col: number) => body?.data[(row - top) * width + (col - left)];
    for (const t of tiles) expect(at(t.row, t.col)).toBe(1);
    // Near the points each entry matches the tile request; away from them there are no tiles.
    let ones = 0;
    for (let row = top; row < top + height; row++)
      for (let col = left; col < left + width; col++) {
        const value = at(row, col);
        ones += value === 1 ? 1 : 0;
        const inside = row >= near.top && row <= near.bottom && col >= near.left && col <= near.right;
        if (!inside) {
          expect(value, `tile ${row}/${col}`).toBe(0);
          continue;
        }
        const tile = await fetchTile(name, 12, row, col);
        await tile.arrayBuffer();
        expect(value, `tile ${row}/${col}`).toBe(tile.status === 200 ? 1 : 0);
      }
    expect(ones).toBeGreaterThanOrEqual(1);
    expect(ones).toBeLessThanOrEqual((near.bottom - near.top + 1) * (near.right - near.left + 1));
  });

  it('cuts an area that runs past the level, saying adjusted', async () => {
    const { body } = await tileMap(`${service(name)}/tilemap/11/2040/2040/32/32`);
    expect(body?.adjusted).toBe(true);
    expect(body?.location).toEqual({ top: 2040, left: 2040, width: 8, height: 8 });
    expect(body?.data).toEqual(new Array(64).fill(0));
  });

  it('answers 304 to a client that holds the answer', async () => {
    const url = `${service(name)}/tilemap/12/${near.top}/${near.left}/4/4`;
    const first = await tileMap(url);
    const etag = first.res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+-tilemap-12-/);
    const again = await tileMap(url, undefined, { 'if-none-match': etag });
    expect(again.res.status).toBe(304);
  });

  it('refuses levels the cache does not have and areas it cannot name', async () => {
    const level = await tileMap(`${service(name)}/tilemap/5/0/0/4/4`);
    expect(level.body?.error?.code).toBe(404);
    expect(level.body?.error?.details).toEqual(['The cache has no level 5.']);
    const width = await tileMap(`${service(name)}/tilemap/12/0/0/0/4`);
    expect(width.body?.error?.code).toBe(400);
    expect(width.body?.error?.details).toEqual(['Invalid width: 0.']);
  });

  it('asks an anonymous caller of the private service for a token', async () => {
    const { body } = await tileMap(`${service(name)}/tilemap/12/0/0/4/4`, null);
    expect(body?.error?.code).toBe(499);
  });
});

describe('an exploded cache', () => {
  it('does not offer tile maps, and says why when asked', async () => {
    const token = await signIn();
    const source = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('tilemap_xsrc'));
    const name = uniqueName('tilemap_exploded');
    const { status } = await publishTiles(token, source.serviceItemId, {
      name,
      levels: '12',
      storageFormat: 'esriMapCacheStorageModeExploded',
    });
    expect(status.status).toBe('completed');
    const json = (await (await fetch(`${service(name)}?f=json&token=${token}`)).json()) as {
      capabilities: string;
    };
    expect(json.capabilities).toBe('Map,Query,Data');
    const { body } = await tileMap(`${service(name)}/tilemap/12/0/0/4/4`, token);
    expect(body?.error?.code).toBe(400);
    expect(body?.error?.details).toEqual(['Tile maps need a compact cache; this one is exploded.']);
  });
});

describe('the tile map of a Vector Tile Service (from a .vtpk)', () => {
  const name = uniqueName('tilemap_roads');

  beforeAll(async () => {
    const { status } = await publishPackage('roads.vtpk', 'vectorTilePackage', name);
    expect(status.status).toBe('completed');
  });

  it('is named in the service JSON and says which package tiles exist', async () => {
    const token = await adminToken();
    const json = (await (
      await fetch(`${service(name, 'VectorTileServer')}?f=json&token=${token}`)
    ).json()) as {
      tileMap: string;
    };
    expect(json.tileMap).toBe('tilemap');
    const { body } = await tileMap(`${service(name, 'VectorTileServer')}/tilemap/0/0/0/1/1`);
    expect(body).toEqual({ adjusted: false, location: { left: 0, top: 0, width: 1, height: 1 }, data: [1] });
  });
});
