/**
 * Refreshing the part of a cache an edit touched: each touched bundle has only the touched tiles drawn
 * (or, in a vector tile cache, encoded) again from the current data and written without moving the
 * others (compact bundles get the new tiles appended and a new index, or are rewritten compactly once
 * replaced tiles' bytes outweigh the live ones; exploded caches get the tile objects replaced or removed); then the cache moves to a new
 * generation in one update, so served ETags and the servers' in-memory tile keys change for every tile
 * at once. Untouched bundles are neither read nor written.
 *
 * Writes happen under `writeAtGeneration`: a full rebuild that reset the cache meanwhile waits for a
 * write under way before removing the old objects, and a write after the reset is refused (`stale`), so a
 * refresh never leaves old tiles in a rebuilt bundle, however its attempts are retried.
 */

import { drawableLayers, type SourceLayers } from '../../db/repositories/layer-features.js';
import {
  advanceGeneration,
  type BundleRecord,
  findBundle,
  findTileCache,
  writeAtGeneration,
} from '../../db/repositories/tile-caches.js';
import { bundleKey, confCdiKey, explodedKey } from '../../infra/tile-cache-store.js';
import { unionBounds } from '../../lib/geometry/index.js';
import type { Bounds } from '../../lib/geometry/types.js';
import { maxSymbolReach } from '../../lib/render/symbol-reach.js';
import { updateBundle } from '../../lib/tiles/bundle-append.js';
import { confCdi } from '../../lib/tiles/cache-config.js';
import type { CacheDefinition, CacheStorage } from '../../lib/tiles/cache-definition.js';
import {
  BUNDLE_FIXED_SIZE,
  BUNDLE_HEADER_SIZE,
  parseBundleIndex,
  tileIndexInBundle,
} from '../../lib/tiles/compact-bundle.js';
import { tileExtension } from '../../lib/tiles/exploded-paths.js';
import { type TileAddress, type TileRange, tilesInRange } from '../../lib/tiles/web-mercator.js';
import { recordProgress } from '../heartbeat.js';
import { withFailureMapping } from '../publish/activity-errors.js';
import { decodePictures } from './picture-symbols.js';
import { rangeLayers } from './range-layers.js';
import { featuresAtOnceOn } from './render-bundle.js';
import { DEFAULT_DRAW_THREADS, drawRange } from './render-threads.js';
import type { TileDeps } from './tile-deps.js';
import { encodeVectorRange, vectorSource } from './vector-bundle.js';

export interface RefreshTarget {
  /** building | ready | failed: a building cache is refreshed after its build. */
  status: string;
  generation: number;
  minLevel: number;
  maxLevel: number;
  reachPx: number;
  storage: CacheStorage;
}

export interface BundleRefreshTask {
  serviceItemId: string;
  generation: number;
  level: number;
  row0: number;
  col0: number;
  ranges: TileRange[];
}

export interface BundleRefreshOutcome extends BundleRecord {
  /** Tiles drawn again with content, and tiles that became empty and were removed. */
  tilesDrawn: number;
  tilesRemoved: number;
  /** False when nothing changed in storage (no tile there before or after) or the cache was reset. */
  written: boolean;
  /** True when the bundle was rewritten without its dead bytes. */
  compacted: boolean;
  /** True when a full rebuild reset the cache first: nothing was written, the round is void. */
  stale: boolean;
}

export function createTileRefreshActivities(deps: TileDeps) {
  const { database, store } = deps;
  const db = database.db;
  const featuresAtOnce = deps.featuresAtOnce ?? featuresAtOnceOn(database);
  const drawThreads = deps.drawThreads ?? DEFAULT_DRAW_THREADS;

  async function render(source: SourceLayers, ranges: TileRange[]): Promise<Map<string, Uint8Array>> {
    const pictures = await decodePictures(source.layers.map((l) => l.drawingInfo));
    const tiles = new Map<string, Uint8Array>();
    for (const range of ranges) {
      const withFeatures = await rangeLayers(
        database,
        source.layers,
        source.storageSR,
        range,
        featuresAtOnce,
      );
      if (withFeatures.length === 0) continue;
      await drawRange(
        drawThreads,
        range,
        withFeatures,
        pictures,
        (t) => void tiles.set(`${t.row}/${t.col}`, t.png),
        (metatiles) => recordProgress({ level: range.level, metatiles }),
      );
    }
    return tiles;
  }

  /** Vector tiles of the ranges, keyed row/col. */
  async function encodeVectors(
    sourceServiceItemId: string,
    definition: CacheDefinition,
    ranges: TileRange[],
  ): Promise<Map<string, Uint8Array>> {
    const source = await vectorSource(database, sourceServiceItemId);
    const maxLevel = definition.lods[definition.lods.length - 1]?.level ?? 0;
    const tiles = new Map<string, Uint8Array>();
    for (const range of ranges) {
      await encodeVectorRange(
        database,
        source,
        range,
        maxLevel,
        (t) => void tiles.set(`${t.row}/${t.col}`, t.bytes),
        (visited) => recordProgress({ level: range.level, visited }),
        deps.vectorFeaturesAtOnce,
      );
    }
    return tiles;
  }

  /**
   * Puts the drawn tiles into a compact bundle (touched slots without a drawn tile are emptied): the
   * counts to record, or nothing when there was no tile before and none now.
   */
  async function writeBundle(
    key: string,
    drawn: ReadonlyMap<string, Uint8Array>,
    touched: readonly TileAddress[],
  ): Promise<Partial<BundleRefreshOutcome>> {
    const existing = (await store.stat(key)) ? await store.getBuffer(key) : undefined;
    const held = existing && parseBundleIndex(existing.subarray(BUNDLE_HEADER_SIZE, BUNDLE_FIXED_SIZE));
    const updates = new Map<number, Uint8Array>();
    let tilesRemoved = 0;
    for (const t of touched) {
      const slot = tileIndexInBundle(t.row, t.col);
      const png = drawn.get(`${t.row}/${t.col}`);
      if (png) updates.set(slot, png);
      else if (held && held.sizes[slot] > 0) {
        updates.set(slot, new Uint8Array());
        tilesRemoved++;
      }
    }
    if (updates.size === 0) return {};
    const result = updateBundle(existing, updates);
    await store.put(key, Buffer.from(result.bytes), result.bytes.length);
    return {
      tileCount: result.tileCount,
      bytes: result.bytes.length,
      tilesDrawn: drawn.size,
      tilesRemoved,
      written: true,
      compacted: result.compacted,
    };
  }

  /** Puts the drawn tiles of an exploded cache as tile objects and removes the touched ones now empty. */
  async function writeTiles(
    serviceItemId: string,
    extension: string,
    drawn: ReadonlyMap<string, Uint8Array>,
    touched: readonly TileAddress[],
    before: BundleRecord,
  ): Promise<Partial<BundleRefreshOutcome>> {
    let { tileCount, bytes } = before;
    let tilesRemoved = 0;
    let written = false;
    for (const t of touched) {
      const key = explodedKey(serviceItemId, t, extension);
      const png = drawn.get(`${t.row}/${t.col}`);
      const had = await store.stat(key);
      if (png) {
        await store.put(key, Buffer.from(png), png.length, 'image/png');
        tileCount += had ? 0 : 1;
        bytes += png.length - (had?.size ?? 0);
        written = true;
      } else if (had) {
        await store.remove(key);
        tileCount--;
        bytes -= had.size;
        tilesRemoved++;
        written = true;
      }
    }
    return { tileCount, bytes, tilesDrawn: drawn.size, tilesRemoved, written };
  }

  // A vector tile an edit made too dense to encode fails the round at once (see vector-bundle.ts).
  return withFailureMapping({
    /**
     * The cache's state and levels, or null when there is nothing to refresh: the cache no longer exists
     * (deleted meanwhile) or its build failed (it is not served, and a rebuild draws everything anew).
     */
    async refreshTarget(serviceItemId: string): Promise<RefreshTarget | null> {
      const cache = await findTileCache(db, serviceItemId);
      if (!cache?.sourceServiceItemId || cache.status === 'failed') return null;
      const source = await drawableLayers(database, cache.sourceServiceItemId);
      const lods = cache.definition.lods;
      return {
        status: cache.status,
        generation: cache.generation,
        minLevel: lods[0]?.level ?? 0,
        maxLevel: lods[lods.length - 1]?.level ?? -1,
        reachPx: Math.max(0, ...source.layers.map((l) => maxSymbolReach(l.drawingInfo))),
        storage: cache.definition.storage,
      };
    },

    /** Draws the touched tiles of one bundle again and stores them beside the untouched ones. */
    async refreshBundle(task: BundleRefreshTask): Promise<BundleRefreshOutcome> {
      const { serviceItemId, generation, level, row0, col0 } = task;
      const cache = await findTileCache(db, serviceItemId);
      const before = await findBundle(db, serviceItemId, generation, level, row0, col0);
      const unchanged = {
        level,
        row0,
        col0,
        tileCount: before?.tileCount ?? 0,
        bytes: before?.bytes ?? 0,
        tilesDrawn: 0,
        tilesRemoved: 0,
        written: false,
        compacted: false,
        stale: false,
      };
      if (!cache?.sourceServiceItemId || cache.generation !== generation)
        return { ...unchanged, stale: true };
      const drawn =
        cache.serviceType === 'VectorTileServer'
          ? await encodeVectors(cache.sourceServiceItemId, cache.definition, task.ranges)
          : await render(await drawableLayers(database, cache.sourceServiceItemId), task.ranges);
      const touched = task.ranges.flatMap((r) => [...tilesInRange(r)]);
      const outcome = await writeAtGeneration(db, serviceItemId, generation, async () => ({
        ...unchanged,
        ...(cache.definition.storage === 'exploded'
          ? await writeTiles(serviceItemId, tileExtension(cache.definition.format), drawn, touched, unchanged)
          : await writeBundle(bundleKey(serviceItemId, level, row0, col0), drawn, touched)),
      }));
      return outcome ?? { ...unchanged, stale: true };
    },

    /**
     * Switches the cache to a new generation with the refreshed bundles' counts, its extent grown to
     * take in the edited areas (a feature added outside it). False when a full rebuild reset it first.
     */
    async switchTileCacheGeneration(
      serviceItemId: string,
      fromGeneration: number,
      refreshed: BundleRecord[],
      areas: Bounds[],
    ): Promise<boolean> {
      const cache = await findTileCache(db, serviceItemId);
      if (!cache) return false;
      const definition = cache.definition;
      const extent = definition.extent ? unionBounds([definition.extent, ...areas]) : unionBounds(areas);
      const grown = extent ? { ...definition, extent } : definition;
      const switched = await advanceGeneration(db, serviceItemId, fromGeneration, refreshed, {
        definition: grown,
        modified: deps.now(),
      });
      if (switched && grown.extent)
        await store.put(
          confCdiKey(serviceItemId),
          confCdi(grown.extent, grown),
          undefined,
          'application/xml',
        );
      return switched;
    },
  });
}

export type TileRefreshActivities = ReturnType<typeof createTileRefreshActivities>;
