/**
 * A bundle refreshed again and again: each edit round draws the same area (with more points in it each
 * time) again and appends the new tiles, until the replaced tiles' bytes outweigh the live ones and the
 * round rewrites the bundle compactly. The object stays bounded, tiles away from the edits keep their
 * bytes, and a reader still holding the index from before the rewrite serves correct tiles: the size
 * prefix it reads with each tile shows the move, and it reads the index again.
 */
import type { Client } from '@temporalio/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCachesAfterEdit } from '../../../api/services/cache-refresh.js';
import type { DatabaseHandle } from '../../../db/client.js';
import { findTileCache } from '../../../db/repositories/tile-caches.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import { bundleKey, createTileCacheReader } from '../../../infra/tile-cache-store.js';
import { COMPACTION } from '../../../lib/tiles/bundle-append.js';
import {
  BUNDLE_FIXED_SIZE,
  BUNDLE_HEADER_SIZE,
  decodeBundle,
  parseBundleIndex,
  tileEntry,
  tileIndexInBundle,
} from '../../../lib/tiles/compact-bundle.js';
import { lonLatToMercator } from '../../../lib/tiles/web-mercator.js';
import {
  type TileCacheRefreshResult,
  tileCacheRefreshWorkflowId,
} from '../../../workflows/tile-cache-messages.js';
import { uniqueName } from '../publish/publish-client.js';
import { signIn, stack } from '../support/portal-client.js';
import { bundleTiles, editDeps, featureTable, openServers } from './cache-objects.js';
import { pixelOf, publishFeatures, publishTiles } from './tile-client.js';

/** The edited area, west of the fixture's points (-87.7…-87.6, 41.8…41.9) in the same level-12 bundle. */
const AREA = { west: -89.0, south: 41.4, east: -88.2, north: 42.0 };
const ROUNDS = 5;
const POINTS_PER_ROUND = 400;

interface Round {
  result: TileCacheRefreshResult;
  size: number;
  liveRecords: number;
}

describe('compacting a bundle that edit refreshes keep appending to', () => {
  let database: DatabaseHandle;
  let store: ObjectStore;
  let client: Client;
  let cacheId: string;
  let key: string;
  let initial: Buffer;
  let generation0: number;
  const rounds: Round[] = [];
  const untouched = pixelOf(-87.65, 41.85, 12).tile;
  let reader: ReturnType<typeof createTileCacheReader>;
  let tileBefore: Uint8Array | undefined;

  beforeAll(async () => {
    ({ database, store, client } = await openServers());
    const token = await signIn();
    const source = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('compact_src'));
    const { service, status } = await publishTiles(token, source.serviceItemId, {
      name: uniqueName('compacted'),
      levels: '12-12',
    });
    expect(status.status).toBe('completed');
    cacheId = service.serviceItemId;
    key = bundleKey(cacheId, 12, untouched.row, untouched.col);
    initial = await store.getBuffer(key);
    generation0 = (await findTileCache(database.db, cacheId))?.generation ?? 0;
    // A server's reader that has read a tile of this generation, so it holds the bundle's index.
    reader = createTileCacheReader(store, { maxTileBytes: 0 });
    tileBefore = await reader.readTile(
      { serviceItemId: cacheId, generation: generation0, storage: 'compactV2' },
      untouched,
    );

    const table = await featureTable(database, source.serviceItemId);
    const [xmin, ymin] = lonLatToMercator(AREA.west, AREA.south);
    const [xmax, ymax] = lonLatToMercator(AREA.east, AREA.north);
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let round = 0; round < ROUNDS; round++) {
      const values = Array.from({ length: POINTS_PER_ROUND }, (_, i) => {
        const x = xmin + random() * (xmax - xmin);
        const y = ymin + random() * (ymax - ymin);
        return `(${2000 + round * POINTS_PER_ROUND + i}, '{"x":${x},"y":${y}}', '(${x},${y}),(${x},${y})')`;
      });
      await database.rows(
        sql.raw(`insert into "${table}" (objectid, shape, bbox) values ${values.join(',')}`),
      );
      const deps = editDeps(database, client, stack().taskQueue);
      await refreshCachesAfterEdit(deps, source.serviceItemId, [[xmin, ymin, xmax, ymax]]);
      const result: TileCacheRefreshResult = await client.workflow
        .getHandle(tileCacheRefreshWorkflowId(cacheId))
        .result();
      const bundle = await store.getBuffer(key);
      let liveRecords = 0;
      for (const tile of decodeBundle(bundle).values()) liveRecords += 4 + tile.length;
      rounds.push({ result, size: bundle.length, liveRecords });
    }
  }, 600_000);

  afterAll(async () => {
    await client?.connection.close();
    await database?.close();
  });

  it('rewrites the bundle compactly once replaced tiles outweigh the live ones', () => {
    const compacted = rounds.filter((r) => r.result.bundlesCompacted > 0);
    expect(rounds.map((r) => r.result.bundlesWritten)).toEqual(Array(ROUNDS).fill(1));
    expect(compacted.length).toBeGreaterThanOrEqual(1);
    // The first round adds tiles where there were none: nothing is replaced, nothing to compact.
    expect(rounds[0].result.bundlesCompacted).toBe(0);
    for (const r of compacted) expect(r.size).toBe(BUNDLE_FIXED_SIZE + r.liveRecords);
  });

  it('keeps the object within the policy: dead bytes never beyond the live part or the minimum', () => {
    for (const r of rounds) {
      const live = BUNDLE_FIXED_SIZE + r.liveRecords;
      expect(r.size).toBeGreaterThanOrEqual(live);
      expect(r.size).toBeLessThanOrEqual(live + Math.max(live, COMPACTION.minDeadBytes));
    }
  });

  it('leaves the bytes of tiles away from the edits unchanged', async () => {
    const before = bundleTiles(initial);
    const after = bundleTiles(await store.getBuffer(key));
    expect(before.size).toBeGreaterThan(0);
    for (const [slot, bytes] of before) expect(after.get(slot)).toBe(bytes);
  });

  it('serves a reader holding the index from before the rewrite the right tile, reading the index again', async () => {
    const slot = tileIndexInBundle(untouched.row, untouched.col);
    const held = parseBundleIndex(initial.subarray(BUNDLE_HEADER_SIZE, BUNDLE_FIXED_SIZE));
    const now = await store.getBuffer(key);
    const current = parseBundleIndex(now.subarray(BUNDLE_HEADER_SIZE, BUNDLE_FIXED_SIZE));
    // The rewrite moved this tile: the held index points elsewhere now.
    expect(current.offsets[slot]).not.toBe(held.offsets[slot]);
    expect(tileEntry(current, untouched.row, untouched.col)?.size).toBe(held.sizes[slot]);
    expect(tileBefore).toBeDefined();
    expect(reader.indexFetches).toBe(1);
    const at = { serviceItemId: cacheId, generation: generation0, storage: 'compactV2' as const };
    const tile = await reader.readTile(at, untouched);
    expect(tile).toEqual(tileBefore);
    expect(reader.indexFetches).toBe(2);
    expect(await reader.readTile(at, untouched)).toEqual(tileBefore);
    expect(reader.indexFetches).toBe(2);
  });
});
