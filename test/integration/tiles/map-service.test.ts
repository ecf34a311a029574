/**
 * A tiled Map Service published from hosted feature services: the cache is built into MinIO, the
 * service JSON describes it, and tiles come back with the features drawn where they are.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../publish/publish-client.js';
import { call, signIn } from '../support/portal-client.js';
import { decodePng, fetchTile, pixelOf, publishFeatures, publishTiles } from './tile-client.js';

describe('a Map Service with a tile cache from a point layer', () => {
  let token: string;
  const name = uniqueName('tile_points');
  let status: Record<string, any>;

  beforeAll(async () => {
    token = await signIn();
    const features = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('pts_src'));
    ({ status } = await publishTiles(token, features.serviceItemId, { name, levels: '10-12' }));
  });

  it('completes the publish job with the tile counts', () => {
    expect(status.status).toBe('completed');
    expect(status.tilesDone).toBeGreaterThanOrEqual(3);
  });

  it('describes the service with tileInfo, the built levels and the data extent', async () => {
    const res = await call(`/rest/services/Hosted/${name}/MapServer`, { token }, { method: 'GET' });
    expect(res.json.singleFusedMapCache).toBe(true);
    expect(res.json.tileInfo.rows).toBe(256);
    expect(res.json.tileInfo.lods.map((l: { level: number }) => l.level)).toEqual([10, 11, 12]);
    // The westernmost point, -87.70°, in Web Mercator metres.
    expect(res.json.fullExtent.xmin).toBeCloseTo(-9762719.34, 1);
    expect(res.json.layers[0].geometryType).toBe('esriGeometryPoint');
  });

  it("colors a point's pixel and leaves an empty place transparent", async () => {
    const { tile, px, py } = pixelOf(-87.65, 41.85, 12);
    const res = await fetchTile(name, 12, tile.row, tile.col);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const pixel = await decodePng(await res.arrayBuffer());
    const [r, g, b, a] = pixel(px, py);
    expect(a).toBe(255);
    expect([r, g, b]).toEqual([0, 122, 194]);
    expect(pixel((px + 128) % 256, (py + 128) % 256)[3]).toBe(0);
  });

  it('answers a tile where there is no data with a 404 and an error body', async () => {
    const { tile } = pixelOf(10, 10, 12);
    const res = await fetchTile(name, 12, tile.row, tile.col);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(404);
  });

  it('sends an ETag and answers a repeated request carrying it with a 304', async () => {
    const { tile } = pixelOf(-87.65, 41.85, 11);
    const first = await fetchTile(name, 11, tile.row, tile.col);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    expect(first.headers.get('cache-control')).toContain('max-age');
    const again = await fetchTile(name, 11, tile.row, tile.col, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
  });
});

describe('a Map Service with a tile cache from a polygon layer', () => {
  const name = uniqueName('tile_polys');

  beforeAll(async () => {
    const token = await signIn();
    const features = await publishFeatures(token, 'polygons.geojson', 'geojson', uniqueName('poly_src'));
    const { status } = await publishTiles(token, features.serviceItemId, { name, levels: '11-12' });
    expect(status.status).toBe('completed');
  });

  it('fills the inside of the polygon with its translucent fill color', async () => {
    const { tile, px, py } = pixelOf(-87.66, 41.86, 12);
    const res = await fetchTile(name, 12, tile.row, tile.col);
    const [r, g, b, a] = (await decodePng(await res.arrayBuffer()))(px, py);
    expect([r, g, b]).toEqual([0, 122, 194]);
    expect(a).toBe(128);
  });

  it('leaves the outside of the polygon transparent', async () => {
    const { tile, px, py } = pixelOf(-87.71, 41.86, 12);
    const res = await fetchTile(name, 12, tile.row, tile.col);
    const pixel = await decodePng(await res.arrayBuffer());
    expect(pixel(px, py)[3]).toBe(0);
  });
});
