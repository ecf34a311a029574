/** Rebuilding a cache from the current data: its tiles come back under new ETags. */
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../publish/publish-client.js';
import { call, signIn } from '../support/portal-client.js';
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
