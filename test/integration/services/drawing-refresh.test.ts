/**
 * updateDefinition of a layer's drawingInfo redraws the tile caches drawn from the service: a station
 * drawn with the publish default (a blue circle, [0, 122, 194]) is red once the refresh has run, and
 * green after an async=true change whose job in the worker asks for the redraw.
 */
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceJobWorkflowId } from '../../../workflows/service-job-messages.js';
import { tileCacheRefreshWorkflowId } from '../../../workflows/tile-cache-messages.js';
import { EDITABLE, type EditableService, edit, publishStations } from '../editing/edit-client.js';
import { uniqueName } from '../publish/publish-client.js';
import { adminToken, stack } from '../support/portal-client.js';
import { decodePng, fetchTile, pixelOf, publishTiles } from '../tiles/tile-client.js';
import { followJob } from './job-client.js';

// stations.csv's North Pier.
const PIER = { lon: -87.6024, lat: 41.8925 };

describe('drawingInfo changes through the admin API redraw the caches', () => {
  const cacheName = uniqueName('restyled_tiles');
  let token: string;
  let svc: EditableService;
  let cacheId: string;
  let client: Client;

  const colourAt = async (lon: number, lat: number) => {
    const { tile, px, py } = pixelOf(lon, lat, 12);
    const res = await fetchTile(cacheName, 12, tile.row, tile.col);
    expect(res.status).toBe(200);
    return (await decodePng(await res.arrayBuffer()))(px, py);
  };

  beforeAll(async () => {
    token = await adminToken();
    client = new Client({ connection: await Connection.connect({ address: stack().temporalAddress }) });
    svc = await publishStations(token, EDITABLE);
    const tiles = await publishTiles(token, svc.serviceItemId, { name: cacheName, levels: '11-12' });
    expect(tiles.status.status).toBe('completed');
    cacheId = tiles.service.serviceItemId;
  }, 240_000);

  afterAll(async () => {
    await client?.connection.close();
  });

  it('the station turns from the default blue to the new red', async () => {
    const [r0, g0, b0] = await colourAt(PIER.lon, PIER.lat);
    expect([r0, g0, b0]).toEqual([0, 122, 194]);
    const drawingInfo = {
      renderer: {
        type: 'simple',
        symbol: { type: 'esriSMS', style: 'esriSMSSquare', color: [255, 0, 0, 255], size: 10 },
      },
    };
    const res = await edit(
      `/rest/admin/services/Hosted/${svc.name}/FeatureServer/0/updateDefinition`,
      token,
      {
        updateDefinition: { drawingInfo },
      },
    );
    expect(res).toEqual({ success: true });
    await client.workflow.getHandle(tileCacheRefreshWorkflowId(cacheId)).result();
    const [r, g, b, a] = await colourAt(PIER.lon, PIER.lat);
    expect([r, g, b, a]).toEqual([255, 0, 0, 255]);
  }, 120_000);

  it('with async=true the job in the worker asks for the redraw: the station turns green', async () => {
    const drawingInfo = {
      renderer: {
        type: 'simple',
        symbol: { type: 'esriSMS', style: 'esriSMSSquare', color: [0, 255, 0, 255], size: 10 },
      },
    };
    const res = await edit(
      `/rest/admin/services/Hosted/${svc.name}/FeatureServer/0/updateDefinition`,
      token,
      { updateDefinition: { drawingInfo }, async: 'true' },
    );
    const job = await followJob(res.statusUrl, token);
    expect([job.status, job.success]).toEqual(['Completed', true]);
    // The job's workflow signals (or starts) the cache's refresh run before it ends.
    const jobId = res.statusUrl.split('/').pop();
    await client.workflow.getHandle(serviceJobWorkflowId('updateDefinition', jobId)).result();
    await client.workflow.getHandle(tileCacheRefreshWorkflowId(cacheId)).result();
    const [r, g, b, a] = await colourAt(PIER.lon, PIER.lat);
    expect([r, g, b, a]).toEqual([0, 255, 0, 255]);
  }, 120_000);
});
