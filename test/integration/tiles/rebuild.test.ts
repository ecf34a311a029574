/** Rebuilding a cache from the current data: its tiles come back under new ETags. */
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { fetchTile, pixelOf, publishFeatures, publishTiles } from './tile-client.js';

describe('updateTiles on a cached Map Service', () => {
  const name = uniqueName('rebuilt');
  let token: string;

  beforeAll(async () => {
    token = await signIn();
    const features = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('rebuild_src'));
    const { status } = await publishTiles(token, features.serviceItemId, { name, levels: '11-12' });
    expect(status.status).toBe('completed');
  });

  it('drops the old tiles and serves rebuilt ones under a new ETag', async () => {
    const { tile } = pixelOf(-87.6, 41.9, 12);
    const before = await fetchTile(name, 12, tile.row, tile.col);
    const oldTag = before.headers.get('etag');
    const res = await call(`/rest/services/Hosted/${name}/MapServer/updateTiles`, { token });
    expect(res.json.success).toBe(true);
    let after: Response | undefined;
    for (let i = 0; i < 100; i++) {
      after = await fetchTile(name, 12, tile.row, tile.col);
      if (after.status === 200 && after.headers.get('etag') !== oldTag) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(after?.status).toBe(200);
    expect(after?.headers.get('etag')).not.toBe(oldTag);
  });

  it('refuses a rebuild without a signed-in owner', async () => {
    const res = await call(`/rest/services/Hosted/${name}/MapServer/updateTiles`);
    expect(res.json.error.code).toBeGreaterThanOrEqual(401);
  });
});

describe('deleting a cached Map Service item', () => {
  it('removes its cache: the service and its tiles are gone, the source feature service stays', async () => {
    const token = await signIn();
    const name = uniqueName('deleted_tiles');
    const features = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('delete_src'));
    const { service, status } = await publishTiles(token, features.serviceItemId, { name, levels: '11-11' });
    expect(status.status).toBe('completed');
    const { tile } = pixelOf(-87.6, 41.9, 11);
    expect((await fetchTile(name, 11, tile.row, tile.col)).status).toBe(200);

    const owner = stack().admin.username;
    const del = await call(`/sharing/rest/content/users/${owner}/items/${service.serviceItemId}/delete`, {
      token,
    });
    expect(del.json.success).toBe(true);
    // Tile routes keep a cache row for two seconds; after that the service is unknown.
    let body: Record<string, any> = {};
    for (let i = 0; i < 50 && !body.error; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const res = await fetchTile(name, 11, tile.row, tile.col);
      if (!res.headers.get('content-type')?.startsWith('image/'))
        body = (await res.json()) as Record<string, any>;
    }
    expect(body.error.details).toEqual(['Service not found or not started.']);
    const info = await call(`/rest/services/Hosted/${name}/MapServer`, { token }, { method: 'GET' });
    expect(info.json.error).toBeDefined();
    const source = await call(
      `/sharing/rest/content/items/${features.serviceItemId}`,
      { token },
      { method: 'GET' },
    );
    expect(source.json.id).toBe(features.serviceItemId);
  });
});
