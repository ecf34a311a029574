/**
 * buildInitialCache=true on a CSV publish: the publish workflow loads the features, then builds the
 * tile cache as its child. The answer lists the Map Service second; its MapServer serves the cache
 * with the features' pixels coloured, and the publish job completes once the cache is built.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { featureServer, fixture, uniqueName, upload, waitForJob } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { decodePng, fetchTile, pixelOf } from './tile-client.js';

describe('publishing a CSV with buildInitialCache=true', () => {
  const name = uniqueName('cached_csv');
  let token: string;
  let response: Record<string, any>;
  let featureStatus: Record<string, any>;
  let cacheStatus: Record<string, any>;

  beforeAll(async () => {
    token = await signIn();
    const owner = stack().admin.username;
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
    );
    response = await upload(
      `/sharing/rest/content/users/${owner}/publish`,
      {
        token,
        filetype: 'csv',
        buildInitialCache: 'true',
        publishParameters: JSON.stringify({ ...analyzed.publishParameters, name, levels: '10-11' }),
      },
      { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
    );
    const [features, map] = response.services ?? [];
    if (!map) throw new Error(`publish answered ${JSON.stringify(response)}`);
    featureStatus = await waitForJob(token, owner, features.serviceItemId, features.jobId, 180_000);
    cacheStatus = await waitForJob(token, owner, map.serviceItemId, map.jobId, 60_000);
  }, 300_000);

  it('answers with the Feature Service and then the Map Service of the same name', () => {
    const [features, map] = response.services;
    expect(features.type).toBe('Feature Service');
    expect(map.type).toBe('Map Service');
    expect(map.serviceurl).toBe(`${stack().baseUrl}/rest/services/Hosted/${name}/MapServer`);
    expect(map.serviceItemId).toMatch(/^[0-9a-f]{32}$/);
    expect(map.jobId).not.toBe(features.jobId);
  });

  it('completes the publish job after the cache is built, and the cache job too', () => {
    expect(featureStatus.status).toBe('completed');
    expect(featureStatus.cacheStatus).toBe('completed');
    expect(featureStatus.tilesDone).toBeGreaterThan(0);
    expect(cacheStatus.status).toBe('completed');
  });

  it("serves a tile with the library's pixel coloured and the layer in the service JSON", async () => {
    const { tile, px, py } = pixelOf(-87.62823, 41.87626, 11);
    const res = await fetchTile(name, 11, tile.row, tile.col);
    expect(res.status).toBe(200);
    const pixel = await decodePng(await res.arrayBuffer());
    expect(pixel(px, py)[3]).toBeGreaterThan(0);
    const info = await call(`/rest/services/Hosted/${name}/MapServer`, { token }, { method: 'GET' });
    expect(info.json.layers.map((l: any) => l.name)).toHaveLength(1);
    expect(info.json.tileInfo.lods.map((l: any) => l.level)).toEqual([10, 11]);
  });

  it('relates the Map Service to the Feature Service by Service2Service, and the features stay queryable', async () => {
    const [features, map] = response.services;
    const related = await call(
      `/sharing/rest/content/items/${features.serviceItemId}/relatedItems`,
      { token, relationshipType: 'Service2Service', direction: 'forward' },
      { method: 'GET' },
    );
    expect(related.json.relatedItems.map((i: any) => i.id)).toContain(map.serviceItemId);
    const count = await call(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      returnCountOnly: 'true',
    });
    expect(count.json.count).toBeGreaterThan(0);
  });
});
