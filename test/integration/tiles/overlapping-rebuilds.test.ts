/**
 * Two full rebuilds of one exploded cache that overlap: the first has read the data and is drawing when
 * the second resets the cache and runs to its end on changed data (a point deleted). The first must then
 * store nothing: its tiles would be of the old data and of a generation no longer served. The workflows
 * run on a task queue only this test's worker polls; the first build's feature read waits at a gate.
 */
import type { Client } from '@temporalio/client';
import { WorkflowFailedError } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTileActivities } from '../../../activities/tiles/tile-activities.js';
import type { DatabaseHandle } from '../../../db/client.js';
import { findTileCache } from '../../../db/repositories/tile-caches.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import { workflowsPath } from '../../../infra/temporal.js';
import {
  TILE_CACHE_BUILD_WORKFLOW,
  tileCacheBuildWorkflowId,
} from '../../../workflows/tile-cache-messages.js';
import { uniqueName } from '../publish/publish-client.js';
import { signIn, stack } from '../support/portal-client.js';
import { bundleObjects, featureTable, openServers } from './cache-objects.js';
import { publishFeatures, publishTiles } from './tile-client.js';

/** Holds the first caller after `holdNext()` until `release()`; every other caller passes. */
class FirstCallerGate {
  private armed = false;
  private held?: Promise<void>;
  private free = () => {};
  arrived = false;

  holdNext(): void {
    this.armed = true;
    this.held = new Promise((r) => {
      this.free = r;
    });
  }

  async pass(): Promise<void> {
    if (!this.armed) return;
    this.armed = false;
    this.arrived = true;
    await this.held;
  }

  release(): void {
    this.armed = false;
    this.free();
  }
}

describe('two overlapping full rebuilds of an exploded cache', () => {
  const taskQueue = `tiles-rebuilds-${Date.now()}`;
  const gate = new FirstCallerGate();
  let database: DatabaseHandle;
  let store: ObjectStore;
  let client: Client;
  let worker: Worker;
  let running: Promise<void>;
  let token: string;

  beforeAll(async () => {
    ({ database, store, client } = await openServers(10));
    token = await signIn();
    // Feature reads pass the gate after the query: the held build has read the data as it was.
    const activities = createTileActivities({
      database: {
        ...database,
        rows: async <T>(q: SQL) => {
          const rows = await database.rows<T>(q);
          await gate.pass();
          return rows;
        },
      },
      store,
      now: Date.now,
    });
    const connection = await NativeConnection.connect({ address: stack().temporalAddress });
    worker = await Worker.create({ connection, taskQueue, workflowsPath, activities });
    running = worker.run();
  }, 120_000);

  afterAll(async () => {
    gate.release();
    worker?.shutdown();
    await running;
    await client?.connection.close();
    await database?.close();
  });

  const rebuild = async (cacheId: string) => {
    const generation = (await findTileCache(database.db, cacheId))?.generation ?? 0;
    return client.workflow.start(TILE_CACHE_BUILD_WORKFLOW, {
      taskQueue,
      workflowId: `${tileCacheBuildWorkflowId(cacheId, generation)}-${Date.now()}`,
      args: [{ serviceItemId: cacheId, reset: true }],
    });
  };

  it('leaves only the later rebuild tiles, as a clean build of the data draws them', async () => {
    const source = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('overlap_src'));
    const levels = '12';
    const storageFormat = 'esriMapCacheStorageModeExploded';
    const { service, status } = await publishTiles(token, source.serviceItemId, {
      name: uniqueName('overlap'),
      levels,
      storageFormat,
    });
    expect(status.status).toBe('completed');
    const cacheId = service.serviceItemId as string;
    const before = await bundleObjects(store, cacheId);
    expect(before.size).toBe(3); // one tile object per fixture point at level 12

    gate.holdNext();
    const first = await rebuild(cacheId);
    for (let i = 0; i < 600 && !gate.arrived; i++) await new Promise((r) => setTimeout(r, 100));
    expect(gate.arrived).toBe(true);

    // The last point goes while the first rebuild holds the data it read; the second draws without it.
    const table = await featureTable(database, source.serviceItemId);
    await database.rows(
      sql.raw(`delete from "${table}" where objectid = (select max(objectid) from "${table}")`),
    );
    const second = await rebuild(cacheId);
    const built = await second.result();
    expect(built.tiles).toBe(2);
    const afterSecond = await bundleObjects(store, cacheId);
    expect(afterSecond.size).toBe(2);

    gate.release();
    const failure = await first.result().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);

    const after = await bundleObjects(store, cacheId);
    expect([...after.keys()]).toEqual([...afterSecond.keys()]);
    for (const [path, bytes] of after) expect(bytes.equals(afterSecond.get(path) as Buffer)).toBe(true);
    const cache = await findTileCache(database.db, cacheId);
    expect(cache?.status).toBe('ready');
    expect(cache?.tileCount).toBe(2);

    const clean = await publishTiles(token, source.serviceItemId, {
      name: uniqueName('overlap_clean'),
      levels,
      storageFormat,
    });
    expect(clean.status.status).toBe('completed');
    const cleanObjects = await bundleObjects(store, clean.service.serviceItemId);
    expect([...after.keys()]).toEqual([...cleanObjects.keys()]);
    for (const [path, bytes] of after) expect(bytes.equals(cleanObjects.get(path) as Buffer)).toBe(true);
  }, 300_000);
});
