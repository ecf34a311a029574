/**
 * A vector tile cache whose tiles would hold more features of a layer than a build encodes at once:
 * the build fails at its first such bundle with a 400 naming the tile, in one attempt, not retried; with the
 * usual cap the same cache builds. The cap is lowered through TileDeps on a worker of the test's own.
 */
import { type Client, WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/client.js';
import { findTileCache } from '../../../db/repositories/tile-caches.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import { TILE_CACHE_BUILD_WORKFLOW } from '../../../workflows/tile-cache-messages.js';
import { uniqueName } from '../publish/publish-client.js';
import { call, signIn } from '../support/portal-client.js';
import { insertBuildingCache, openServers, withTileWorker } from './cache-objects.js';
import { pixelOf, publishFeatures } from './tile-client.js';

describe('a vector tile cache too dense for a tile', () => {
  const stamp = Date.now().toString(16);
  const dense = stamp.padEnd(32, 'c');
  const usual = stamp.padEnd(32, 'd');
  let database: DatabaseHandle;
  let store: ObjectStore;
  let client: Client | undefined;
  let features: { serviceItemId: string; count: number };

  const build = (serviceItemId: string, vectorFeaturesAtOnce: number | undefined) => {
    const taskQueue = `tiles-dense-${serviceItemId}`;
    const deps = { database, store, now: Date.now, vectorFeaturesAtOnce };
    return withTileWorker(deps, taskQueue, async (client) => {
      const handle = await client.workflow.start(TILE_CACHE_BUILD_WORKFLOW, {
        taskQueue,
        workflowId: taskQueue,
        args: [{ serviceItemId, concurrency: 1 }],
      });
      const outcome = await handle.result().then(
        (result) => ({ result, error: undefined }),
        (error: unknown) => ({ result: undefined, error }),
      );
      const history = await handle.fetchHistory();
      const failedAttempts = (history.events ?? []).filter((e) => e.activityTaskFailedEventAttributes).length;
      return { ...outcome, failedAttempts };
    });
  };

  beforeAll(async () => {
    ({ database, store, client } = await openServers(2));
    const token = await signIn();
    const name = uniqueName('dense_src');
    const published = await publishFeatures(token, 'points.geojson', 'geojson', name);
    const layer = await call(`/rest/services/Hosted/${name}/FeatureServer/0/query`, {
      token,
      where: '1=1',
      returnCountOnly: 'true',
    });
    features = { serviceItemId: published.serviceItemId, count: layer.json.count as number };
    for (const id of [dense, usual]) {
      await insertBuildingCache(database, {
        serviceItemId: id,
        name: uniqueName(`dense_${id.slice(-1)}`),
        sourceServiceItemId: features.serviceItemId,
        minLevel: 0,
        maxLevel: 3,
        serviceType: 'VectorTileServer',
      });
    }
  }, 300_000);

  afterAll(async () => {
    await database?.close();
    await client?.connection.close();
  });

  it('fails at once with a 400 naming the tile', async () => {
    // The points lie around Chicago, in one tile up to level 3, which the build does first (deepest
    // first): one feature fewer than the layer has is too many for it.
    expect(features.count).toBeGreaterThan(1);
    const { tile } = pixelOf(-87.65, 41.85, 3);
    const { error, failedAttempts } = await build(dense, features.count - 1);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause?.cause as { message?: string; nonRetryable?: boolean };
    expect(cause?.message).toMatch(
      new RegExp(
        `^Vector tile 3/${tile.row}/${tile.col} would hold more than ${(features.count - 1).toLocaleString('en-US')} features of layer '`,
      ),
    );
    expect(cause?.nonRetryable).toBe(true);
    expect(failedAttempts).toBe(1);
    expect((await findTileCache(database.db, dense))?.status).toBe('failed');
  }, 120_000);

  it('builds with the usual cap', async () => {
    const { result, error } = await build(usual, undefined);
    expect(error).toBeUndefined();
    expect((result as { tiles: number }).tiles).toBeGreaterThanOrEqual(4);
    expect((await findTileCache(database.db, usual))?.status).toBe('ready');
  }, 120_000);
});
