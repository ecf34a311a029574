/**
 * A vector tile cache whose tiles would hold more features of a layer than a build encodes at once:
 * the build fails at its first such bundle with a 400 naming the tile, in one attempt, not retried; with the
 * usual cap the same cache builds. A refresh round after an edit that makes a cached tile too dense fails
 * the same way and leaves the cache as it was: its generation and every bundle object unchanged. The cap
 * is lowered through TileDeps on a worker of the test's own.
 */
import { type Client, WorkflowFailedError } from '@temporalio/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/client.js';
import { cacheRefreshTargets } from '../../../db/repositories/cache-refresh-targets.js';
import { findTileCache } from '../../../db/repositories/tile-caches.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import {
  TILE_CACHE_BUILD_WORKFLOW,
  TILE_CACHE_REFRESH_WORKFLOW,
} from '../../../workflows/tile-cache-messages.js';
import { uniqueName } from '../publish/publish-client.js';
import { call, signIn } from '../support/portal-client.js';
import {
  bundleObjects,
  featureTable,
  insertBuildingCache,
  insertPoint,
  openServers,
  withTileWorker,
} from './cache-objects.js';
import { pixelOf, publishFeatures } from './tile-client.js';

describe('a vector tile cache too dense for a tile', () => {
  const stamp = Date.now().toString(16);
  const dense = stamp.padEnd(32, 'c');
  const usual = stamp.padEnd(32, 'd');
  let database: DatabaseHandle;
  let store: ObjectStore;
  let client: Client | undefined;
  let features: { serviceItemId: string; count: number };

  const run = (
    workflow: string,
    args: unknown[],
    serviceItemId: string,
    vectorFeaturesAtOnce: number | undefined,
  ) => {
    const taskQueue = `tiles-dense-${workflow}-${serviceItemId}`;
    const deps = { database, store, now: Date.now, vectorFeaturesAtOnce };
    return withTileWorker(deps, taskQueue, async (client) => {
      const handle = await client.workflow.start(workflow, { taskQueue, workflowId: taskQueue, args });
      const outcome = await handle.result().then(
        (result) => ({ result, error: undefined }),
        (error: unknown) => ({ result: undefined, error }),
      );
      const history = await handle.fetchHistory();
      const events = history.events ?? [];
      const failedAttempts = events.filter((e) => e.activityTaskFailedEventAttributes).length;
      // An activity's attempt number is on its start; a retried one would start again with attempt 2.
      const attempts = events.flatMap((e) => e.activityTaskStartedEventAttributes?.attempt ?? []);
      return { ...outcome, failedAttempts, attempts };
    });
  };
  const build = (serviceItemId: string, vectorFeaturesAtOnce: number | undefined) =>
    run(TILE_CACHE_BUILD_WORKFLOW, [{ serviceItemId, concurrency: 1 }], serviceItemId, vectorFeaturesAtOnce);
  const refusal = (error: unknown) =>
    (error as WorkflowFailedError).cause?.cause as {
      message?: string;
      nonRetryable?: boolean;
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
    const cause = refusal(error);
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

  it('leaves the cache whose build failed out of the refreshes that edits start', async () => {
    const failed = await findTileCache(database.db, dense);
    expect(failed?.status).toBe('failed');
    // An edit's envelope (in the layer's storage reference; any finite one will do): only the ready cache follows it.
    const targets = await cacheRefreshTargets(database.db, features.serviceItemId, [
      [-87.7, 41.8, -87.6, 41.9],
    ]);
    expect(targets.caches).toEqual([usual]);
    expect(targets.areas).toHaveLength(1);
    // A refresh already under way when its cache's build fails (it waits out the build) ends without a round.
    const { result, error, attempts } = await run(
      TILE_CACHE_REFRESH_WORKFLOW,
      [{ serviceItemId: dense, pending: targets.areas }],
      dense,
      undefined,
    );
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ rounds: 0, bundlesWritten: 0, tilesDrawn: 0, generation: 0 });
    // refreshTarget alone ran: no bundle drawn, no generation switched.
    expect(attempts).toEqual([1]);
    const after = await findTileCache(database.db, dense);
    expect({ status: after?.status, generation: after?.generation }).toEqual({
      status: 'failed',
      generation: failed?.generation,
    });
  }, 120_000);

  it('fails a refresh round whose edit makes a cached tile too dense, leaving the cache as it was', async () => {
    const before = await findTileCache(database.db, usual);
    expect(before?.status).toBe('ready');
    const objects = await bundleObjects(store, usual);
    expect(objects.size).toBeGreaterThan(0);
    // One more point beside the others: every tile that held the layer's points now holds one more than the
    // cap, which the build's tiles were within.
    const table = await featureTable(database, features.serviceItemId);
    const area = await insertPoint(database, table, 1_000_000, -87.65, 41.85);
    // and its count, as an edit commits it
    await database.rows(
      sql`update hosted_layers set feature_count = feature_count + 1 where service_item_id = ${features.serviceItemId}`,
    );
    const { error, failedAttempts, attempts } = await run(
      TILE_CACHE_REFRESH_WORKFLOW,
      [{ serviceItemId: usual, pending: [area] }],
      usual,
      features.count,
    );
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = refusal(error);
    const named = /^Vector tile (\d+)\/(\d+)\/(\d+) would hold more than ([\d,]+) features of layer '/.exec(
      cause?.message ?? '',
    );
    expect(named, cause?.message).not.toBeNull();
    const [level, row, col] = (named as RegExpExecArray).slice(1, 4).map(Number);
    const { tile } = pixelOf(-87.65, 41.85, level);
    expect({ level, row, col, cap: named?.[4] }).toEqual({
      level,
      row: tile.row,
      col: tile.col,
      cap: features.count.toLocaleString('en-US'),
    });
    expect(cause?.nonRetryable).toBe(true);
    // A round draws three bundles at once, each of which may meet the tile: each fails once, none is retried.
    expect(failedAttempts).toBeGreaterThanOrEqual(1);
    expect(attempts.length).toBeGreaterThanOrEqual(failedAttempts);
    expect(attempts.every((a) => a === 1)).toBe(true);
    const after = await findTileCache(database.db, usual);
    expect({ status: after?.status, generation: after?.generation }).toEqual({
      status: 'ready',
      generation: before?.generation,
    });
    const objectsAfter = await bundleObjects(store, usual);
    expect([...objectsAfter.keys()]).toEqual([...objects.keys()]);
    for (const [key, bytes] of objects)
      expect({ key, same: bytes.equals(objectsAfter.get(key) as Buffer) }).toEqual({ key, same: true });
  }, 120_000);
});
