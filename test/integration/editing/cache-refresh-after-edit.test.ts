/**
 * An edit through the FeatureServer redraws the tile caches drawn from the service: a feature added
 * where the cache had nothing shows in its tile once the cache's refresh workflow has run, and
 * deleting it again clears the tile.
 */
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileCacheRefreshWorkflowId } from '../../../workflows/tile-cache-messages.js';
import { uniqueName } from '../publish/publish-client.js';
import { adminToken, stack } from '../support/portal-client.js';
import { decodePng, fetchTile, pixelOf, publishTiles } from '../tiles/tile-client.js';
import { EDITABLE, type EditableService, edit, publishStations } from './edit-client.js';

const FAR = { lon: -75.0, lat: 42.5 };

describe('tile caches follow edits of their source service', () => {
  const cacheName = uniqueName('edited_tiles');
  let token: string;
  let svc: EditableService;
  let cacheId: string;
  let client: Client;

  const refreshed = () => client.workflow.getHandle(tileCacheRefreshWorkflowId(cacheId)).result();
  const alphaAt = async (lon: number, lat: number) => {
    const { tile, px, py } = pixelOf(lon, lat, 12);
    const res = await fetchTile(cacheName, 12, tile.row, tile.col);
    if (res.status !== 200) return 0;
    return (await decodePng(await res.arrayBuffer()))(px, py)[3];
  };

  beforeAll(async () => {
    token = await adminToken();
    client = new Client({ connection: await Connection.connect({ address: stack().temporalAddress }) });
    svc = await publishStations(token, EDITABLE);
    const tiles = await publishTiles(token, svc.serviceItemId, { name: cacheName, levels: '10-12' });
    expect(tiles.status.status).toBe('completed');
    cacheId = tiles.service.serviceItemId;
  }, 240_000);

  afterAll(async () => {
    await client?.connection.close();
  });

  it('an added feature is drawn into the cache', async () => {
    expect(await alphaAt(FAR.lon, FAR.lat)).toBe(0);
    const add = await edit(`${svc.layer}/addFeatures`, token, {
      features: [
        {
          attributes: { Name: 'Far' },
          geometry: { x: FAR.lon, y: FAR.lat, spatialReference: { wkid: 4326 } },
        },
      ],
    });
    expect(add.addResults[0].success).toBe(true);
    await refreshed();
    expect(await alphaAt(FAR.lon, FAR.lat)).toBeGreaterThan(0);
  }, 120_000);

  it('a deleted feature is cleared from the cache', async () => {
    const del = await edit(`${svc.layer}/deleteFeatures`, token, { where: "Name = 'Far'" });
    expect(del.deleteResults).toHaveLength(1);
    await refreshed();
    expect(await alphaAt(FAR.lon, FAR.lat)).toBe(0);
  }, 120_000);
});
