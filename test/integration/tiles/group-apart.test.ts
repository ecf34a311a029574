/**
 * A group of small bundles far apart (the edge bundles of a deep level over a wide extent) is read range
 * by range, not as the box between them, and stores the very bundle objects a build of one bundle an
 * activity stores.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangesLieTogether } from '../../../activities/tiles/range-layers.js';
import { bundleTileRange } from '../../../activities/tiles/render-bundle.js';
import {
  type BundleGroupOutcome,
  type BundleOutcome,
  createTileActivities,
  type TileCachePlan,
} from '../../../activities/tiles/tile-activities.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { createObjectStore } from '../../../infra/object-store.js';
import { bundleKey } from '../../../infra/tile-cache-store.js';
import { lonLatToMercator } from '../../../lib/tiles/web-mercator.js';
import { cacheBundles } from '../../../workflows/tile-cache-bundles.js';
import { uniqueName } from '../publish/publish-client.js';
import { signIn, stack } from '../support/portal-client.js';
import { insertBuildingCache } from './cache-objects.js';
import { publishFeatures } from './tile-client.js';

describe('a group of bundles far apart', () => {
  let database: DatabaseHandle;
  let store: ReturnType<typeof createObjectStore>;
  const grouped = `${Date.now().toString(16)}`.padEnd(32, 'a');
  const single = `${Date.now().toString(16)}`.padEnd(32, 'b');

  beforeAll(async () => {
    const s = stack();
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 4 });
    store = createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 } as never);
    const features = await publishFeatures(
      await signIn(),
      'two-cities.geojson',
      'geojson',
      uniqueName('apart_src'),
    );
    for (const serviceItemId of [grouped, single])
      await insertBuildingCache(database, {
        serviceItemId,
        name: uniqueName('apart'),
        sourceServiceItemId: features.serviceItemId,
        minLevel: 13,
        maxLevel: 13,
      });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('reads each range on its own and stores what one bundle an activity stores', async () => {
    const activities = createTileActivities({ database, store, now: Date.now });
    const env = () => new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000 });
    const plan: TileCachePlan = await env().run(activities.prepareTileCache, grouped);
    const other: TileCachePlan = await env().run(activities.prepareTileCache, single);
    const extent = plan.extent as [number, number, number, number];
    // The level-13 bundles holding Los Angeles and Chicago, at opposite corners of the data's extent.
    const holding = (lon: number, lat: number) => {
      const [x, y] = lonLatToMercator(lon, lat);
      const b = cacheBundles(extent, 13, 13, plan.reachPx).find((c) => {
        const r = bundleTileRange(c, extent, plan.reachPx);
        if (!r) return false;
        const span = (2 * 20037508.342789244) / 2 ** 13;
        const col = Math.floor((x + 20037508.342789244) / span);
        const row = Math.floor((20037508.342789244 - y) / span);
        return row >= r.minRow && row <= r.maxRow && col >= r.minCol && col <= r.maxCol;
      });
      if (!b) throw new Error(`no bundle holds ${lon} ${lat}`);
      return b;
    };
    const apart = [holding(-118.24, 34.05), holding(-87.65, 41.85)];
    const ranges = apart.map((b) => bundleTileRange(b, extent, plan.reachPx));
    expect(ranges.every((r) => r !== undefined)).toBe(true);
    expect(rangesLieTogether(ranges.filter((r) => r !== undefined))).toBe(false);

    const group: BundleGroupOutcome = await env().run(activities.buildBundles, {
      serviceItemId: grouped,
      generation: plan.generation,
      bundles: apart,
    });
    expect(group).toMatchObject({ bundles: 2, reused: 0 });
    // Each city paints at least its own tile (its two points are within a tile or two of each other).
    expect(group.tileCount).toBeGreaterThanOrEqual(2);
    let tiles = 0;
    for (const b of apart) {
      const out: BundleOutcome = await env().run(activities.buildBundle, {
        serviceItemId: single,
        generation: other.generation,
        ...b,
      });
      tiles += out.tileCount;
      const one = await store.getBuffer(bundleKey(single, b.level, b.row0, b.col0));
      const many = await store.getBuffer(bundleKey(grouped, b.level, b.row0, b.col0));
      expect(many.equals(one), `bundle ${b.level}/${b.row0}/${b.col0}`).toBe(true);
    }
    expect(group.tileCount).toBe(tiles);
    // Done bundles are found and not drawn again.
    const again = await env().run(activities.buildBundles, {
      serviceItemId: grouped,
      generation: plan.generation,
      bundles: apart,
    });
    expect(again).toMatchObject({ bundles: 2, reused: 2, tileCount: tiles });
  }, 120_000);
});
