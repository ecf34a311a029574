/**
 * A full rebuild (reset) that starts while an edit refresh of the same cache is under way. The data is
 * also changed without a refresh signal (a point deleted, as an overwrite re-publish does), so a bundle
 * that kept anything of the refresh's old generation would differ from a clean build. The workflows run
 * on a task queue only this test's worker polls; its refresh activities wait at gates the test opens:
 * - while the refresh is drawing, the rebuild runs to its end: the refresh then writes nothing;
 * - while the refresh is writing a bundle, the rebuild's reset waits for the write, then removes it;
 * and an edit committed after the rebuild drew its bundles is drawn by a refresh after the build.
 */
import type { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTileActivities } from '../../../activities/tiles/tile-activities.js';
import {
  type BundleRefreshOutcome,
  type BundleRefreshTask,
  createTileRefreshActivities,
} from '../../../activities/tiles/tile-refresh-activities.js';
import { refreshCachesAfterEdit } from '../../../api/services/cache-refresh.js';
import type { DatabaseHandle } from '../../../db/client.js';
import { findTileCache } from '../../../db/repositories/tile-caches.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import { workflowsPath } from '../../../infra/temporal.js';
import { bundlePath, readBundleTile } from '../../../lib/tiles/compact-bundle.js';
import {
  TILE_CACHE_BUILD_WORKFLOW,
  type TileCacheBuildResult,
  type TileCacheRefreshResult,
  tileCacheBuildWorkflowId,
  tileCacheRefreshWorkflowId,
} from '../../../workflows/tile-cache-messages.js';
import { uniqueName } from '../publish/publish-client.js';
import { signIn, stack } from '../support/portal-client.js';
import {
  bundleObjects,
  bundleTiles,
  editDeps,
  featureTable,
  insertPoint,
  openServers,
} from './cache-objects.js';
import { decodePng, fetchTile, pixelOf, publishFeatures, publishTiles } from './tile-client.js';

/**
 * Edits inside the fixture's extent (-87.7…-87.6, 41.8…41.9: the layer's extent, which bounds what a
 * build draws and which these direct inserts do not grow), away from its points a, b and c.
 */
const X = { lon: -87.62, lat: 41.82 };
const Y = { lon: -87.68, lat: 41.89 };
const LEVELS = '10-12';

/** Holds callers at `pass()` while closed; counts those that arrived since it was closed. */
class Gate {
  arrivals = 0;
  private opened: Promise<void> = Promise.resolve();
  private release = () => {};

  close(): void {
    this.arrivals = 0;
    this.opened = new Promise((r) => {
      this.release = r;
    });
  }

  open(): void {
    this.release();
    this.opened = Promise.resolve();
  }

  async pass(): Promise<void> {
    const opened = this.opened;
    this.arrivals++;
    await opened;
  }

  async reached(n = 1, timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.arrivals < n) {
      if (Date.now() > until) throw new Error(`gate reached ${this.arrivals} times, not ${n}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('a full rebuild started while an edit refresh is under way', () => {
  const taskQueue = `tiles-race-${Date.now()}`;
  let database: DatabaseHandle;
  let store: ObjectStore;
  let client: Client;
  let worker: Worker;
  let running: Promise<void>;
  let token: string;
  const drawing = new Gate();
  const writing = new Gate();
  const finishing = new Gate();
  const outcomes: { task: BundleRefreshTask; out: BundleRefreshOutcome }[] = [];

  beforeAll(async () => {
    ({ database, store, client } = await openServers(10));
    token = await signIn();
    const now = Date.now;
    const build = createTileActivities({ database, store, now });
    // The refresh activities see the data and the store through gates: feature reads (drawing) and
    // bundle puts (writing, inside the generation check).
    const refresh = createTileRefreshActivities({
      database: {
        ...database,
        rows: async <T>(q: SQL) => {
          await drawing.pass();
          return database.rows<T>(q);
        },
      },
      store: {
        ...store,
        put: async (key, ...rest) => {
          if (key.endsWith('.bundle')) await writing.pass();
          return store.put(key, ...rest);
        },
      },
      now,
    });
    const activities = {
      ...build,
      ...refresh,
      async refreshBundle(task: BundleRefreshTask) {
        const out = await refresh.refreshBundle(task);
        outcomes.push({ task, out });
        return out;
      },
      async finishTileCache(...args: Parameters<typeof build.finishTileCache>) {
        await finishing.pass();
        return build.finishTileCache(...args);
      },
    };
    const connection = await NativeConnection.connect({ address: stack().temporalAddress });
    worker = await Worker.create({ connection, taskQueue, workflowsPath, activities });
    running = worker.run();
  }, 120_000);

  // A failed test must not leave the next one's refresh waiting at a gate.
  afterEach(() => {
    drawing.open();
    writing.open();
    finishing.open();
  });

  afterAll(async () => {
    drawing.open();
    writing.open();
    finishing.open();
    worker?.shutdown();
    await running;
    await client?.connection.close();
    await database?.close();
  });

  /** A feature service of the fixture's points and a cache of it built by the product. */
  async function cachedSource(label: string) {
    const source = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName(`${label}_src`));
    const name = uniqueName(label);
    const { service, status } = await publishTiles(token, source.serviceItemId, { name, levels: LEVELS });
    expect(status.status).toBe('completed');
    return { sourceId: source.serviceItemId, cacheId: service.serviceItemId as string, name };
  }

  /** Deletes the fixture's last point without any refresh: only a rebuild shows it gone. */
  async function deleteQuietly(table: string) {
    await database.rows(
      sql.raw(
        `delete from "${table}" where objectid = (select max(objectid) from "${table}" where objectid < 1000)`,
      ),
    );
  }

  async function startRebuild(cacheId: string) {
    const generation = (await findTileCache(database.db, cacheId))?.generation ?? 0;
    return client.workflow.start(TILE_CACHE_BUILD_WORKFLOW, {
      taskQueue,
      workflowId: tileCacheBuildWorkflowId(cacheId, generation),
      args: [{ serviceItemId: cacheId, reset: true }],
    });
  }

  const refreshResult = (cacheId: string): Promise<TileCacheRefreshResult> =>
    client.workflow.getHandle(tileCacheRefreshWorkflowId(cacheId)).result();

  /** The bundles of a cache built afresh by the product from the source's data as it is now. */
  async function cleanBuild(sourceId: string, label: string) {
    const { service, status } = await publishTiles(token, sourceId, {
      name: uniqueName(label),
      levels: LEVELS,
    });
    expect(status.status).toBe('completed');
    return bundleObjects(store, service.serviceItemId);
  }

  it('while the refresh draws, the rebuild runs through and the refresh then writes nothing', async () => {
    const { sourceId, cacheId } = await cachedSource('race_drawing');
    const table = await featureTable(database, sourceId);
    drawing.close();
    const area = await insertPoint(database, table, 1000, X.lon, X.lat);
    await refreshCachesAfterEdit(editDeps(database, client, taskQueue), sourceId, [area]);
    await drawing.reached();
    await deleteQuietly(table);

    const build = await startRebuild(cacheId);
    const built: TileCacheBuildResult = await build.result();
    expect(built.bundles).toBe(3);
    const rebuilt = await bundleObjects(store, cacheId);
    const generation = (await findTileCache(database.db, cacheId))?.generation;

    drawing.open();
    const refreshed = await refreshResult(cacheId);
    expect(refreshed.bundlesWritten).toBe(0);
    const mine = outcomes.filter((o) => o.task.serviceItemId === cacheId);
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine.every((o) => o.out.stale && !o.out.written)).toBe(true);
    expect((await findTileCache(database.db, cacheId))?.generation).toBe(generation);

    const after = await bundleObjects(store, cacheId);
    expect([...after.keys()]).toEqual([...rebuilt.keys()]);
    for (const [path, bytes] of after) expect(bytes.equals(rebuilt.get(path) as Buffer)).toBe(true);
    const clean = await cleanBuild(sourceId, 'race_drawing_clean');
    expect([...after.keys()]).toEqual([...clean.keys()]);
    for (const [path, bytes] of after) expect(bytes.equals(clean.get(path) as Buffer)).toBe(true);
  }, 300_000);

  it('while the refresh writes, the reset waits for it and the edits after the draw show', async () => {
    const { sourceId, cacheId, name } = await cachedSource('race_writing');
    const table = await featureTable(database, sourceId);
    writing.close();
    finishing.close();
    const deps = editDeps(database, client, taskQueue);
    const area = await insertPoint(database, table, 1000, X.lon, X.lat);
    await refreshCachesAfterEdit(deps, sourceId, [area]);
    await writing.reached();
    await deleteQuietly(table);

    const build = await startRebuild(cacheId);
    // The reset's update of the cache row waits for the refresh's write to finish.
    const waiting = async () =>
      (
        await database.rows<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike 'update "tile_caches"%'`,
        )
      )[0].n;
    for (let i = 0; i < 300 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await waiting()).toBeGreaterThan(0);
    expect(finishing.arrivals).toBe(0);
    writing.open();

    // Every bundle is drawn; the build has not finished: an edit now is after the rebuild's draw.
    await finishing.reached();
    const { tile, px, py } = pixelOf(Y.lon, Y.lat, 12);
    const rebuilt = (await bundleObjects(store, cacheId)).get(bundlePath(12, tile.row, tile.col));
    const drawnY = rebuilt && readBundleTile(rebuilt, tile.row, tile.col);
    expect(drawnY ? (await decodePng(new Uint8Array(drawnY).buffer))(px, py)[3] : 0).toBe(0);
    const areaY = await insertPoint(database, table, 1001, Y.lon, Y.lat);
    await refreshCachesAfterEdit(deps, sourceId, [areaY]);
    finishing.open();
    await build.result();
    const refreshed = await refreshResult(cacheId);
    expect(refreshed.rounds).toBeGreaterThanOrEqual(1);
    expect(refreshed.bundlesWritten).toBeGreaterThanOrEqual(1);

    let res = await fetchTile(name, 12, tile.row, tile.col);
    for (let i = 0; i < 30 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      res = await fetchTile(name, 12, tile.row, tile.col);
    }
    expect(res.status).toBe(200);
    expect((await decodePng(await res.arrayBuffer()))(px, py)[3]).toBeGreaterThan(0);

    const after = await bundleObjects(store, cacheId);
    const clean = await cleanBuild(sourceId, 'race_writing_clean');
    expect([...after.keys()]).toEqual([...clean.keys()]);
    for (const [path, bytes] of after)
      expect(bundleTiles(bytes)).toEqual(bundleTiles(clean.get(path) as Buffer));
  }, 300_000);
});
