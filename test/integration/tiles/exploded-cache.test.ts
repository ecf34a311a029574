/** A cache in the exploded format: one object per tile beside conf.xml, served like a compact one. */
import { beforeAll, describe, expect, it } from 'vitest';
import { createObjectStore } from '../../../infra/object-store.js';
import { confXmlKey, explodedKey } from '../../../infra/tile-cache-store.js';
import { uniqueName } from '../publish/publish-client.js';
import { signIn, stack } from '../support/portal-client.js';
import { decodePng, fetchTile, pixelOf, publishFeatures, publishTiles } from './tile-client.js';

describe('a Map Service cached in the exploded format', () => {
  const name = uniqueName('exploded');
  let serviceItemId: string;
  const store = () => {
    const s = stack();
    return createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 } as never);
  };

  beforeAll(async () => {
    const token = await signIn();
    const features = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('exploded_src'));
    const { service, status } = await publishTiles(token, features.serviceItemId, {
      name,
      levels: '12',
      storageFormat: 'esriMapCacheStorageModeExploded',
    });
    expect(status.status).toBe('completed');
    serviceItemId = service.serviceItemId;
  });

  it('stores each tile as its own object under L/R/C hex names', async () => {
    const { tile } = pixelOf(-87.65, 41.85, 12);
    const stat = await store().stat(explodedKey(serviceItemId, tile));
    expect(stat?.size).toBeGreaterThan(0);
  });

  it('writes conf.xml saying the storage is exploded', async () => {
    const xml = (await store().getBuffer(confXmlKey(serviceItemId))).toString('utf8');
    expect(xml).toContain('<StorageFormat>esriMapCacheStorageModeExploded</StorageFormat>');
  });

  it('serves the tile with the point drawn', async () => {
    const { tile, px, py } = pixelOf(-87.65, 41.85, 12);
    const res = await fetchTile(name, 12, tile.row, tile.col);
    expect(res.status).toBe(200);
    expect((await decodePng(await res.arrayBuffer()))(px, py)[3]).toBe(255);
  });
});
