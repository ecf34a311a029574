/**
 * Vector tiles built from a hosted feature service (outputType VectorTiles): tiles decoded with
 * @mapbox/vector-tile hold, per tile, the features the test places there by its own Web Mercator
 * arithmetic (buffer included), at the tile coordinates it computes; empty tiles are absent and the
 * tilemap says so; the service JSON and default style describe them; an edit of the source reaches the
 * tiles through the refresh workflow.
 */
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/portal-client.js';
import { CITIES, gridPosition, publishCityTiles } from './vector-client.js';

const EXTENT = 4096;
const BUFFER = 64 / EXTENT;
const MAX_LEVEL = 6;

/** Cities expected in tile z/x/y: inside it or within the buffer around it. */
function expectedIn(z: number, x: number, y: number) {
  return CITIES.filter((c) => {
    const { fx, fy } = gridPosition(c.lon, c.lat, z);
    return fx >= x - BUFFER && fx <= x + 1 + BUFFER && fy >= y - BUFFER && fy <= y + 1 + BUFFER;
  });
}

describe('vector tiles published from a hosted feature service', () => {
  let token: string;
  let name: string;
  let sourceName: string;
  let layerName: string;
  let base: string;
  let publishResponse: Record<string, any>;

  const tile = async (z: number, y: number, x: number) => {
    const res = await fetch(`${base}/tile/${z}/${y}/${x}.pbf?token=${token}`);
    return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
  };

  beforeAll(async () => {
    const published = await publishCityTiles('vt_cities', MAX_LEVEL);
    ({ token, sourceName, layerName, name } = published);
    publishResponse = published.response;
    base = published.url;
  }, 240_000);

  it('answers the publish with a Vector Tile Service entry and creates that item', async () => {
    const entry = publishResponse.services[0];
    expect(entry.type).toBe('Vector Tile Service');
    expect(entry.serviceurl).toBe(`${base}`);
    const item = await call(`/sharing/rest/content/items/${entry.serviceItemId}`, { token });
    expect(item.json.type).toBe('Vector Tile Service');
  });

  it('describes the service as ArcGIS does: 512-pixel pbf tiles, the levels built, a default style', async () => {
    const root = (await call(`/rest/services/Hosted/${name}/VectorTileServer`, { token })).json;
    expect(root.tiles).toEqual(['tile/{z}/{y}/{x}.pbf']);
    expect(root.defaultStyles).toBe('resources/styles');
    expect(root.tileInfo.rows).toBe(512);
    expect(root.tileInfo.format).toBe('pbf');
    expect(root.tileInfo.lods.map((l: { level: number }) => l.level)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // Level 0 of 512-pixel tiles: the world (2πR metres) over 512 pixels.
    expect(root.tileInfo.lods[0].resolution).toBeCloseTo((2 * Math.PI * 6378137) / 512, 3);
  });

  it('puts in every tile the features that fall in it or its buffer, and nothing in the others', async () => {
    for (let z = 0; z <= MAX_LEVEL; z++) {
      const tiles = new Set<string>();
      for (const c of CITIES) {
        const { fx, fy } = gridPosition(c.lon, c.lat, z);
        tiles.add(`${Math.floor(fx)}/${Math.floor(fy)}`);
      }
      for (const key of tiles) {
        const [x, y] = key.split('/').map(Number);
        const t = await tile(z, y, x);
        expect(t.status, `tile ${z}/${y}/${x}`).toBe(200);
        const vt = new VectorTile(new PbfReader(t.bytes));
        expect(Object.keys(vt.layers)).toEqual([layerName]);
        const layer = vt.layers[layerName];
        expect(layer.extent).toBe(EXTENT);
        const want = expectedIn(z, x, y);
        expect(layer.length, `features in ${z}/${y}/${x}`).toBe(want.length);
        const got = Array.from({ length: layer.length }, (_, i) => layer.feature(i));
        expect(got.map((f) => f.properties.city).sort()).toEqual(want.map((c) => c.city).sort());
        for (const f of got) {
          const c = CITIES.find((k) => k.city === f.properties.city)!;
          expect(f.properties.pop).toBe(c.pop);
          expect(f.properties.OBJECTID).toBeUndefined();
          expect(f.id).toBe(CITIES.indexOf(c) + 1);
          expect(f.type).toBe(1);
          const { fx, fy } = gridPosition(c.lon, c.lat, z);
          const [[p]] = f.loadGeometry();
          expect(Math.abs(p.x - (fx - x) * EXTENT)).toBeLessThanOrEqual(1);
          expect(Math.abs(p.y - (fy - y) * EXTENT)).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('stores no empty tile: a tile away from every city is absent, and the tilemap says which exist', async () => {
    // Level 6 tile 20/10 is in the South Atlantic, far from every city.
    expect(expectedIn(6, 20, 40)).toEqual([]);
    expect((await tile(6, 40, 20)).status).toBe(404);
    const chicago = gridPosition(-87.6, 41.9, 6);
    const row = Math.floor(chicago.fy);
    const col = Math.floor(chicago.fx);
    const map = await call(
      `/rest/services/Hosted/${name}/VectorTileServer/tilemap/6/${row}/${col - 1}/3/1`,
      { token },
      { method: 'GET' },
    );
    expect(map.json.data).toEqual([0, 1, 0]);
  });

  it('sends tiles gzip-encoded as protocol buffers', async () => {
    const { fx, fy } = gridPosition(2.35, 48.85, 4);
    const res = await fetch(`${base}/tile/4/${Math.floor(fy)}/${Math.floor(fx)}.pbf?token=${token}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-type')).toContain('application/x-protobuf');
  });

  it('serves a MapLibre style drawing the layer from its renderer, with absolute tile URLs', async () => {
    const style = (
      await call(
        `/rest/services/Hosted/${name}/VectorTileServer/resources/styles/root.json`,
        { token },
        { method: 'GET' },
      )
    ).json;
    expect(style.version).toBe(8);
    expect(style.sources.esri.tiles).toEqual([`${base}/tile/{z}/{y}/{x}.pbf`]);
    expect(style.sources.esri.maxzoom).toBe(MAX_LEVEL);
    expect(style.layers.length).toBeGreaterThan(0);
    for (const l of style.layers) {
      expect(l['source-layer']).toBe(layerName);
      expect(l.type).toBe('circle');
    }
  });

  it('refreshes the tiles an edit touched: an added city appears in its tile', async () => {
    const added = await call(`/rest/services/Hosted/${sourceName}/FeatureServer/0/addFeatures`, {
      token,
      features: JSON.stringify([
        {
          geometry: { x: 151.2, y: -33.87, spatialReference: { wkid: 4326 } },
          attributes: { city: 'Sydney' },
        },
      ]),
    });
    expect(added.json.addResults?.[0]?.success).toBe(true);
    const { fx, fy } = gridPosition(151.2, -33.87, MAX_LEVEL);
    let t = await tile(MAX_LEVEL, Math.floor(fy), Math.floor(fx));
    for (let i = 0; i < 100 && t.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 300));
      t = await tile(MAX_LEVEL, Math.floor(fy), Math.floor(fx));
    }
    expect(t.status).toBe(200);
    const layer = new VectorTile(new PbfReader(t.bytes)).layers[layerName];
    expect(layer.length).toBe(1);
    expect(layer.feature(0).properties.city).toBe('Sydney');
    const [[p]] = layer.feature(0).loadGeometry();
    expect(Math.abs(p.x - (fx - Math.floor(fx)) * EXTENT)).toBeLessThanOrEqual(1);
    expect(Math.abs(p.y - (fy - Math.floor(fy)) * EXTENT)).toBeLessThanOrEqual(1);
  }, 60_000);
});
