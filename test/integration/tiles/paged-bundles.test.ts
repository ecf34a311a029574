/**
 * A cache built with every layer read for each metatile (and in pages where a metatile holds more than a
 * bundle reads at once) stores the very bundles a build reading each layer once per bundle stores: the
 * same source, levels and style, two caches, their bundle objects compared byte for byte. A refresh of
 * the paged cache's bundles (as after an edit) reading the same way draws the same tiles again.
 */
import type { Client } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTileActivities } from '../../../activities/tiles/tile-activities.js';
import type { DatabaseHandle } from '../../../db/client.js';
import { findTileCache } from '../../../db/repositories/tile-caches.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import { bundleKey } from '../../../infra/tile-cache-store.js';
import { BUNDLE_DIM, decodeBundle } from '../../../lib/tiles/compact-bundle.js';
import { TILE_CACHE_BUILD_WORKFLOW } from '../../../workflows/tile-cache-messages.js';
import { uniqueName } from '../publish/publish-client.js';
import { signIn } from '../support/portal-client.js';
import { insertBuildingCache, openServers, withTileWorker } from './cache-objects.js';
import { pixelOf, publishFeatures } from './tile-client.js';

describe('a tile cache built with its layer read per metatile', () => {
  const stamp = Date.now().toString(16);
  const whole = stamp.padEnd(32, 'a');
  const paged = stamp.padEnd(32, 'b');
  let database: DatabaseHandle;
  let store: ObjectStore;
  const asked: Record<string, number> = {};

  const build = async (serviceItemId: string, featuresAtOnce: number | undefined) => {
    const taskQueue = `tiles-paged-${serviceItemId}`;
    const deps = { database, store, now: Date.now, featuresAtOnce };
    const result = await withTileWorker(deps, taskQueue, (client) =>
      client.workflow.execute(TILE_CACHE_BUILD_WORKFLOW, {
        taskQueue,
        workflowId: taskQueue,
        args: [{ serviceItemId, concurrency: 1 }],
      }),
    );
    asked[serviceItemId] = result.tiles;
  };

  beforeAll(async () => {
    let client: Client;
    ({ database, store, client } = await openServers(2));
    await client.connection.close();
    const features = await publishFeatures(
      await signIn(),
      'points.geojson',
      'geojson',
      uniqueName('paged_src'),
    );
    for (const id of [whole, paged]) {
      const name = uniqueName(`paged_${id.slice(-1)}`);
      await insertBuildingCache(database, {
        serviceItemId: id,
        name,
        sourceServiceItemId: features.serviceItemId,
        minLevel: 0,
        maxLevel: 13,
      });
    }
    await build(whole, undefined);
    // One feature at once: every bundle reads its layer per metatile.
    await build(paged, 1);
  }, 300_000);

  afterAll(async () => {
    await database?.close();
  });

  it('stores the same tiles in the same bundle objects, byte for byte', async () => {
    expect(asked[whole]).toBeGreaterThanOrEqual(14);
    expect(asked[paged]).toBe(asked[whole]);
    let compared = 0;
    for (let level = 0; level <= 13; level++) {
      const { tile } = pixelOf(-87.65, 41.85, level);
      const row0 = tile.row - (tile.row % BUNDLE_DIM);
      const col0 = tile.col - (tile.col % BUNDLE_DIM);
      const a = await store.getBuffer(bundleKey(whole, level, row0, col0));
      const b = await store.getBuffer(bundleKey(paged, level, row0, col0));
      expect(decodeBundle(a).size).toBeGreaterThan(0);
      expect({ level, same: a.equals(b) }).toEqual({ level, same: true });
      compared++;
    }
    expect(compared).toBe(14);
  });

  it('draws the same tiles again when a refresh reads the layer per metatile', async () => {
    const generation = (await findTileCache(database.db, paged))?.generation ?? -1;
    const refresh = createTileActivities({ database, store, now: Date.now, featuresAtOnce: 1 });
    let drawn = 0;
    for (let level = 0; level <= 13; level++) {
      const { tile } = pixelOf(-87.65, 41.85, level);
      const row0 = tile.row - (tile.row % BUNDLE_DIM);
      const col0 = tile.col - (tile.col % BUNDLE_DIM);
      // The 3×3 tiles around the point (as far as the level has them): its tile is drawn again.
      const n = 2 ** level;
      const range = {
        level,
        minRow: Math.max(row0, tile.row - 1),
        maxRow: Math.min(n - 1, row0 + BUNDLE_DIM - 1, tile.row + 1),
        minCol: Math.max(col0, tile.col - 1),
        maxCol: Math.min(n - 1, col0 + BUNDLE_DIM - 1, tile.col + 1),
      };
      const out: Awaited<ReturnType<typeof refresh.refreshBundle>> = await new MockActivityEnvironment().run(
        () => refresh.refreshBundle({ serviceItemId: paged, generation, level, row0, col0, ranges: [range] }),
      );
      expect(out.stale).toBe(false);
      drawn += out.tilesDrawn;
      const a = decodeBundle(await store.getBuffer(bundleKey(whole, level, row0, col0)));
      const b = decodeBundle(await store.getBuffer(bundleKey(paged, level, row0, col0)));
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
      for (const [slot, bytes] of a)
        expect({ level, slot, same: Buffer.from(bytes).equals(Buffer.from(b.get(slot) ?? [])) }).toEqual({
          level,
          slot,
          same: true,
        });
    }
    expect(drawn).toBeGreaterThanOrEqual(14);
  });
});
