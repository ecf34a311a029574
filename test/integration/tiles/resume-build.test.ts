/**
 * A build whose bundle activity fails after the bundle was written (as a crash between writing and
 * reporting would): the retry finds the bundle recorded and does not render it again, and the cache
 * ends complete. The workflow runs on a task queue only this test's in-process worker polls, so the
 * test decides which attempt fails. Also: a bundle object read back matches, tile for tile and byte
 * for byte, what the REST tile endpoint serves. The same build with its six small bundles drawn as one
 * group, failing after the group was written, redoes none of them and stores the same bundle objects.
 */

import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTileActivities } from '../../../activities/tiles/tile-activities.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { drawableLayers, featuresIn } from '../../../db/repositories/layer-features.js';
import { findTileCache } from '../../../db/repositories/tile-caches.js';
import { tileCacheBundles } from '../../../db/schema/tile-caches.js';
import { createObjectStore } from '../../../infra/object-store.js';
import { workflowsPath } from '../../../infra/temporal.js';
import { bundleKey } from '../../../infra/tile-cache-store.js';
import { SHAPE_TEXT } from '../../../lib/query/plan-statements.js';
import {
  TILE_CACHE_BUILD_WORKFLOW,
  type TileCacheBuildResult,
} from '../../../workflows/tile-cache-messages.js';
import { uniqueName } from '../publish/publish-client.js';
import { signIn, stack } from '../support/portal-client.js';
import { insertBuildingCache } from './cache-objects.js';
import { expectBundleServed, publishFeatures } from './tile-client.js';

describe('a tile cache build that fails after writing a bundle', () => {
  const taskQueue = `tiles-resume-${Date.now()}`;
  const serviceItemId = `${Date.now().toString(16)}`.padEnd(32, 'c');
  const name = uniqueName('resumed');
  let database: DatabaseHandle;
  let store: ReturnType<typeof createObjectStore>;
  const rendered: string[] = [];
  const reused: string[] = [];
  let calls = 0;
  let result: TileCacheBuildResult;
  let features: Awaited<ReturnType<typeof publishFeatures>>;

  beforeAll(async () => {
    const s = stack();
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 2 });
    store = createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 } as never);
    const token = await signIn();
    features = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('resume_src'));
    await insertBuildingCache(database, {
      serviceItemId,
      name,
      sourceServiceItemId: features.serviceItemId,
      minLevel: 8,
      maxLevel: 13,
    });
    const real = createTileActivities({ database, store, now: Date.now });
    const activities = {
      ...real,
      async buildBundle(task: Parameters<typeof real.buildBundle>[0]) {
        calls++;
        const out = await real.buildBundle(task);
        (out.reused ? reused : rendered).push(`${task.level}/${task.row0}/${task.col0}`);
        if (calls === 3) throw new Error('worker lost after writing the bundle');
        return out;
      },
    };
    const connection = await NativeConnection.connect({ address: s.temporalAddress });
    const worker = await Worker.create({ connection, taskQueue, workflowsPath, activities });
    const client = new Client({ connection: await Connection.connect({ address: s.temporalAddress }) });
    result = await worker.runUntil(
      client.workflow.execute(TILE_CACHE_BUILD_WORKFLOW, {
        taskQueue,
        workflowId: `tiles-resume-${serviceItemId}`,
        // Every bundle in an activity of its own (the six are small enough to be drawn as one group).
        args: [{ serviceItemId, concurrency: 1, groupTiles: 0 }],
      }),
    );
    await connection.close();
    await client.connection.close();
  }, 300_000);

  afterAll(async () => {
    await database?.close();
  });

  it('renders every bundle exactly once: the retried one is found finished and reused', () => {
    // Deepest level first: the level with most tiles starts at once instead of last.
    expect(rendered.map((b) => Number(b.split('/')[0]))).toEqual([13, 12, 11, 10, 9, 8]);
    expect(rendered).toHaveLength(6);
    expect(new Set(rendered).size).toBe(6);
    expect(reused).toEqual([rendered[2]]);
    expect(calls).toBe(7);
  });

  it('ends ready with the tiles of every level', async () => {
    expect(result.bundles).toBe(6);
    // Every level holds at least the tile of its one bundle.
    expect(result.tiles).toBeGreaterThanOrEqual(6);
    const cache = await findTileCache(database.db, serviceItemId);
    expect(cache?.status).toBe('ready');
    expect(cache?.tileCount).toBe(result.tiles);
  });

  it('serves each tile of a bundle with exactly the bytes stored in the bundle object', async () => {
    await expectBundleServed(serviceItemId, name, 13, -87.65, 41.85);
  });

  it('keeps the order a run was begun in when it continues: an older run goes on lowest level first', async () => {
    const s = stack();
    const generation = (await findTileCache(database.db, serviceItemId))?.generation ?? -1;
    const visit = async (resume: Record<string, unknown>) => {
      const visited: number[] = [];
      const real = createTileActivities({ database, store, now: Date.now });
      const activities = {
        ...real,
        async buildBundle(task: Parameters<typeof real.buildBundle>[0]) {
          visited.push(task.level);
          return real.buildBundle(task);
        },
      };
      const queue = `${taskQueue}-order-${visited.length}-${Math.random().toString(16).slice(2)}`;
      const connection = await NativeConnection.connect({ address: s.temporalAddress });
      const worker = await Worker.create({ connection, taskQueue: queue, workflowsPath, activities });
      const client = new Client({ connection: await Connection.connect({ address: s.temporalAddress }) });
      try {
        await worker.runUntil(
          client.workflow.execute(TILE_CACHE_BUILD_WORKFLOW, {
            taskQueue: queue,
            workflowId: `${queue}-wf`,
            args: [
              {
                serviceItemId,
                concurrency: 1,
                resume: { generation, tiles: 0, bundlesReused: 0, ...resume },
              },
            ],
          }),
        );
      } finally {
        await connection.close();
        await client.connection.close();
      }
      return visited;
    };
    // Six bundles, one per level 8-13, all finished already: a continued run visits those after its index.
    expect(await visit({ nextBundle: 4 })).toEqual([12, 13]);
    expect(await visit({ nextBundle: 4, deepestFirst: true })).toEqual([9, 8]);
  }, 120_000);

  it("draws a point layer's features at exactly the points their shapes hold", async () => {
    const source = await drawableLayers(database, features.serviceItemId);
    const layer = source.layers[0];
    expect(layer.geometryType).toBe('esriGeometryPoint');
    const drawn = await featuresIn(database, layer, source.storageSR, [-2e7, -2e7, 2e7, 2e7]);
    // The test's own reading: x and y out of each shape's JSON text, as queries read it.
    const stored = await database.rows<{ x: number; y: number }>(
      sql.raw(
        `select ("shape"::json->>'x')::float8 as x, ("shape"::json->>'y')::float8 as y from (select ${SHAPE_TEXT} from "${layer.tableName}") as s`,
      ),
    );
    const key = (p: { x: number; y: number }) => `${p.x} ${p.y}`;
    expect(stored.length).toBeGreaterThan(2);
    expect(drawn.map((f) => key(f.geometry as { x: number; y: number })).sort()).toEqual(
      stored.map((r) => key({ x: Number(r.x), y: Number(r.y) })).sort(),
    );
    expect(drawn.every((f) => f.bounds[0] === f.bounds[2] && f.bounds[1] === f.bounds[3])).toBe(true);
    // A layer too large to read as one row (or drawn with attributes) is read row by row: the same points.
    const large = { ...layer, featureCount: 10_000_000 };
    const byRow = await featuresIn(database, large, source.storageSR, [-2e7, -2e7, 2e7, 2e7]);
    expect(byRow.map((f) => key(f.geometry as { x: number; y: number })).sort()).toEqual(
      drawn.map((f) => key(f.geometry as { x: number; y: number })).sort(),
    );
    // Only the points inside the asked box.
    const [first] = drawn;
    const g = first.geometry as { x: number; y: number };
    const around = await featuresIn(database, layer, source.storageSR, [g.x - 1, g.y - 1, g.x + 1, g.y + 1]);
    expect(around.map((f) => key(f.geometry as { x: number; y: number }))).toContain(key(g));
    expect(around.length).toBeLessThan(drawn.length);
  });

  it('draws the six small bundles as one group, and after a failure once they were written redoes none', async () => {
    const s = stack();
    const groupedId = `${Date.now().toString(16)}`.padEnd(32, 'd');
    await insertBuildingCache(database, {
      serviceItemId: groupedId,
      name: uniqueName('grouped'),
      sourceServiceItemId: features.serviceItemId,
      minLevel: 8,
      maxLevel: 13,
    });
    const real = createTileActivities({ database, store, now: Date.now });
    const groups: { levels: number[]; reused: number }[] = [];
    let single = 0;
    const activities = {
      ...real,
      async buildBundle(task: Parameters<typeof real.buildBundle>[0]) {
        single++;
        return real.buildBundle(task);
      },
      async buildBundles(task: Parameters<typeof real.buildBundles>[0]) {
        const out = await real.buildBundles(task);
        groups.push({ levels: task.bundles.map((b) => b.level), reused: out.reused });
        if (groups.length === 1) throw new Error('worker lost after writing the group');
        return out;
      },
    };
    const queue = `${taskQueue}-grouped`;
    const connection = await NativeConnection.connect({ address: s.temporalAddress });
    const worker = await Worker.create({ connection, taskQueue: queue, workflowsPath, activities });
    const client = new Client({ connection: await Connection.connect({ address: s.temporalAddress }) });
    let grouped: TileCacheBuildResult;
    try {
      grouped = await worker.runUntil(
        client.workflow.execute(TILE_CACHE_BUILD_WORKFLOW, {
          taskQueue: queue,
          workflowId: `${queue}-wf`,
          args: [{ serviceItemId: groupedId, concurrency: 1 }],
        }),
      );
    } finally {
      await connection.close();
      await client.connection.close();
    }
    // One group of all six, deepest first; its retry found every bundle recorded and drew none again.
    expect(single).toBe(0);
    expect(groups).toEqual([
      { levels: [13, 12, 11, 10, 9, 8], reused: 0 },
      { levels: [13, 12, 11, 10, 9, 8], reused: 6 },
    ]);
    expect(grouped).toMatchObject({ bundles: result.bundles, tiles: result.tiles, bytes: result.bytes });
    expect((await findTileCache(database.db, groupedId))?.status).toBe('ready');
    // The same bundle objects, byte for byte, as the build that drew each bundle in an activity of its own.
    const records = await database.db
      .select()
      .from(tileCacheBundles)
      .where(eq(tileCacheBundles.serviceItemId, serviceItemId));
    expect(records).toHaveLength(6);
    expect(records.filter((b) => b.tileCount > 0)).toHaveLength(6);
    for (const b of records) {
      const one = await store.getBuffer(bundleKey(serviceItemId, b.level, b.row0, b.col0));
      const many = await store.getBuffer(bundleKey(groupedId, b.level, b.row0, b.col0));
      expect(many.equals(one), `bundle ${b.level}/${b.row0}/${b.col0}`).toBe(true);
    }
  }, 120_000);
});
