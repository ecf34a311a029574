/**
 * The tile cache pipeline's activities, keyed by the cache's service item id: prepare (levels, extent,
 * conf.xml and conf.cdi), build one bundle, finish or fail, and reset for a rebuild. A finished bundle
 * is recorded, so a retried or resumed build skips it; object keys are deterministic, so a bundle
 * interrupted half way is simply written again. Bundles are written under `writeAtGeneration`, so a
 * build that another rebuild has superseded cannot write into the new one.
 */

import { ApplicationFailure } from '@temporalio/common';
import { findJob, finishJob, updateJobProgress } from '../../db/repositories/jobs.js';
import { drawableLayers } from '../../db/repositories/layer-features.js';
import {
  beginRebuild,
  bundleTotals,
  dropBundleRecords,
  findBundle,
  findTileCache,
  recordBundle,
  type TileCacheRow,
  tileCachesOfSource,
  updateTileCache,
  updateTileCacheAt,
  writeAtGeneration,
} from '../../db/repositories/tile-caches.js';
import { bundleKey, cachePrefix, confCdiKey, confXmlKey, explodedKey } from '../../infra/tile-cache-store.js';
import { internalError } from '../../lib/errors.js';
import { unionBounds } from '../../lib/geometry/index.js';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import { maxSymbolReach } from '../../lib/render/symbol-reach.js';
import type { RgbaImage } from '../../lib/render/types.js';
import { confCdi, confXml } from '../../lib/tiles/cache-config.js';
import { webMercatorCache } from '../../lib/tiles/cache-definition.js';
import { BundleBuilder } from '../../lib/tiles/compact-bundle.js';
import { tileExtension } from '../../lib/tiles/exploded-paths.js';
import { defaultLevelRange } from '../../lib/tiles/level-range.js';
import { checkTileBudget, DEFAULT_TILE_BUDGET } from '../../lib/tiles/tile-budget.js';
import { vectorTileServiceRoot } from '../../lib/tiles/vector-tile-service.js';
import type { TileRange } from '../../lib/tiles/web-mercator.js';
import { recordProgress } from '../heartbeat.js';
import { withFailureMapping } from '../publish/activity-errors.js';
import { decodePictures } from './picture-symbols.js';
import { rangeLayers, rangesLayers, rangesLieTogether } from './range-layers.js';
import {
  type BundleArea,
  bundleCollector,
  bundleTileRange,
  featuresAtOnceOn,
  type LayerFeatures,
  type RenderedTile,
} from './render-bundle.js';
import { DEFAULT_DRAW_THREADS, drawRange, prestartDrawingThreads } from './render-threads.js';
import { packFeatures, unpackFeatures } from './render-wire.js';
import type { TileDeps } from './tile-deps.js';
import { createTileRefreshActivities } from './tile-refresh-activities.js';
import { encodeVectorRange, tileLayerNames, vectorSource } from './vector-bundle.js';

export interface TileCachePlan {
  generation: number;
  /** Web Mercator extent of the data; null when there is nothing to draw. */
  extent: Bounds | null;
  minLevel: number;
  maxLevel: number;
  /** Largest symbol reach of the layers in pixels: bundles this close to the extent are built too. */
  reachPx: number;
}

export interface BundleTask {
  serviceItemId: string;
  generation: number;
  level: number;
  row0: number;
  col0: number;
  jobId?: string;
}

export interface BundleOutcome {
  tileCount: number;
  bytes: number;
  /** True when the bundle was already finished by an earlier attempt and nothing was redone. */
  reused: boolean;
}

/** A group of small bundles of one build, drawn in one activity (buildBundles). */
export interface BundleGroupTask {
  serviceItemId: string;
  generation: number;
  bundles: BundleArea[];
  jobId?: string;
}

export interface BundleGroupOutcome {
  /** How many bundles the group had. */
  bundles: number;
  /** How many of them an earlier attempt had finished (not redone). */
  reused: number;
  tileCount: number;
  bytes: number;
}

export interface CacheTotals {
  bundles: number;
  tiles: number;
  bytes: number;
}

export function createTileActivities(deps: TileDeps) {
  const { database, store } = deps;
  const db = database.db;
  const featuresAtOnce = deps.featuresAtOnce ?? featuresAtOnceOn(database);
  const drawThreads = deps.drawThreads ?? DEFAULT_DRAW_THREADS;

  async function cacheOf(serviceItemId: string): Promise<TileCacheRow> {
    const row = await findTileCache(db, serviceItemId);
    if (!row)
      throw internalError('Unable to complete operation.', [`Tile cache ${serviceItemId} does not exist.`]);
    return row;
  }

  async function writeProgress(jobId: string | undefined, serviceItemId: string, generation: number) {
    if (!jobId || !(await findJob(db, jobId))) return;
    const totals = await bundleTotals(db, serviceItemId, generation);
    await updateJobProgress(db, jobId, { bundlesDone: totals.bundles, tilesDone: totals.tiles }, deps.now());
  }

  /** A vector tile bundle: the tiles with features of the bundle, as one compact bundle. */
  async function buildVectorBundle(task: BundleTask, cache: TileCacheRow): Promise<BundleOutcome> {
    const { serviceItemId, generation, level, row0, col0 } = task;
    const { definition } = cache;
    const source = cache.sourceServiceItemId && (await vectorSource(database, cache.sourceServiceItemId));
    const reachPx = source
      ? Math.max(0, ...source.layers.map((l) => maxSymbolReach(l.layer.drawingInfo)))
      : 0;
    const range = definition.extent && bundleTileRange({ level, row0, col0 }, definition.extent, reachPx);
    const builder = new BundleBuilder();
    if (range && source) {
      const maxLevel = definition.lods[definition.lods.length - 1]?.level ?? level;
      await encodeVectorRange(
        database,
        source,
        range,
        maxLevel,
        (t) => void builder.add(t.row, t.col, t.bytes),
        (tiles) => recordProgress({ level, row0, col0, tiles }),
        deps.vectorFeaturesAtOnce,
      );
    }
    const tileCount = builder.tileCount;
    const bundle = tileCount > 0 ? builder.finish() : undefined;
    const pending = bundle && Buffer.concat([bundle.head, ...bundle.records]);
    const written = await writeAtGeneration(db, serviceItemId, generation, async (tx) => {
      if (pending) await store.put(bundleKey(serviceItemId, level, row0, col0), pending, pending.length);
      await recordBundle(tx, serviceItemId, generation, {
        level,
        row0,
        col0,
        tileCount,
        bytes: bundle?.byteLength ?? 0,
      });
      return true;
    });
    if (!written) throw supersededBuild();
    await writeProgress(task.jobId, serviceItemId, generation);
    return { tileCount, bytes: bundle?.byteLength ?? 0, reused: false };
  }

  /** What a raster bundle is drawn from: the source's layers, their pictures and the bundle's range. */
  async function rasterSource(cache: TileCacheRow) {
    const source = cache.sourceServiceItemId
      ? await drawableLayers(database, cache.sourceServiceItemId)
      : undefined;
    const layers = source?.layers ?? [];
    const reachPx = Math.max(0, ...layers.map((l) => maxSymbolReach(l.drawingInfo)));
    const extent = cache.definition.extent;
    return {
      layers,
      storageSR: source?.storageSR as SpatialReference,
      pictures: source ? await decodePictures(layers.map((l) => l.drawingInfo)) : new Map(),
      /** The bundle's tiles within the extent grown by the reach; none without a source or extent. */
      rangeOf: (b: BundleArea): TileRange | undefined =>
        source && extent ? bundleTileRange(b, extent, reachPx) : undefined,
    };
  }

  /**
   * Draws a bundle's range from `layers` (none: an empty bundle) and stores it, as a compact bundle or
   * as tile objects, under the generation fence, recording it done.
   */
  async function drawAndStore(
    task: BundleTask,
    cache: TileCacheRow,
    range: TileRange | undefined,
    layers: LayerFeatures[],
    pictures: ReadonlyMap<string, RgbaImage>,
    onMetatile: (metatiles: number) => void,
  ): Promise<BundleOutcome> {
    const { serviceItemId, generation, level, row0, col0 } = task;
    const definition = cache.definition;
    let tileCount = 0;
    let bytes = 0;
    let pending: Buffer | undefined;
    const drawn: RenderedTile[] = [];
    if (range && layers.length > 0) {
      const exploded = definition.storage === 'exploded';
      const { builder, onTile: collect } = bundleCollector();
      const result = await drawRange(
        drawThreads,
        range,
        layers,
        pictures,
        exploded ? (t) => void drawn.push(t) : collect,
        onMetatile,
      );
      tileCount = result.tiles;
      if (exploded) bytes = drawn.reduce((n, t) => n + t.png.length, 0);
      else if (builder.tileCount > 0) {
        const { head, records, byteLength } = builder.finish();
        pending = Buffer.concat([head, ...records]);
        bytes = byteLength;
      }
    }
    // Tile objects are put under the generation fence too (a bundle's drawn tiles are held until
    // then, as a compact bundle is): a build that a rebuild superseded cannot leave tiles behind.
    const extension = tileExtension(definition.format);
    const written = await writeAtGeneration(db, serviceItemId, generation, async (tx) => {
      if (pending) await store.put(bundleKey(serviceItemId, level, row0, col0), pending, pending.length);
      await putTiles(drawn, (t) =>
        store.put(explodedKey(serviceItemId, t, extension), Buffer.from(t.png), t.png.length, 'image/png'),
      );
      await recordBundle(tx, serviceItemId, generation, { level, row0, col0, tileCount, bytes });
      return true;
    });
    if (!written) throw supersededBuild();
    return { tileCount, bytes, reused: false };
  }

  return withFailureMapping({
    /** Decides levels and extent (once; kept on the cache) and writes conf.xml and conf.cdi. */
    async prepareTileCache(serviceItemId: string): Promise<TileCachePlan> {
      const cache = await cacheOf(serviceItemId);
      let definition = cache.definition;
      let reachPx = 0;
      const vector = cache.serviceType === 'VectorTileServer';
      // The drawing threads start while the build plans, not on its first bundle.
      if (!vector) prestartDrawingThreads(drawThreads);
      if (cache.sourceServiceItemId) {
        const source = await drawableLayers(database, cache.sourceServiceItemId);
        const extent = unionBounds(source.layers.map((l) => l.extent));
        const count = source.layers.reduce((n, l) => n + l.featureCount, 0);
        reachPx = Math.max(0, ...source.layers.map((l) => maxSymbolReach(l.drawingInfo)));
        const levels =
          definition.lods.length > 0
            ? {
                minLevel: definition.lods[0].level,
                maxLevel: definition.lods[definition.lods.length - 1].level,
              }
            : extent
              ? defaultLevelRange(extent, count)
              : { minLevel: 0, maxLevel: 0 };
        checkTileBudget(extent, levels.minLevel, levels.maxLevel, deps.maxTiles ?? DEFAULT_TILE_BUDGET);
        definition = webMercatorCache({
          ...levels,
          extent: extent ?? undefined,
          storage: definition.storage,
          format: definition.format,
        });
        // The layers as they are now: a cache set up before its source was loaded (buildInitialCache)
        // or rebuilt after a re-publish shows the current ones.
        const tileLayers = tileLayerNames(source.layers);
        const serviceLayers = source.layers.map((l, i) => ({
          id: l.layerId,
          name: l.name,
          geometryType: l.geometryType,
          drawingInfo: l.drawingInfo,
          ...(vector ? { tileLayer: tileLayers[i] } : {}),
        }));
        const service: Record<string, unknown> = { ...cache.service, layers: serviceLayers };
        if (vector)
          service.root = vectorTileServiceRoot(
            cache.name,
            definition,
            String(cache.service.copyrightText ?? ''),
          );
        await updateTileCache(db, serviceItemId, { definition, service, modified: deps.now() });
      }
      await store.put(confXmlKey(serviceItemId), confXml(definition), undefined, 'application/xml');
      if (definition.extent)
        await store.put(
          confCdiKey(serviceItemId),
          confCdi(definition.extent, definition),
          undefined,
          'application/xml',
        );
      const lods = definition.lods;
      return {
        generation: cache.generation,
        extent: definition.extent ?? null,
        minLevel: lods[0]?.level ?? 0,
        maxLevel: lods[lods.length - 1]?.level ?? -1,
        reachPx,
      };
    },

    /** Renders and stores one bundle, unless an earlier attempt finished it. */
    async buildBundle(task: BundleTask): Promise<BundleOutcome> {
      const { serviceItemId, generation, level, row0, col0 } = task;
      const done = await findBundle(db, serviceItemId, generation, level, row0, col0);
      if (done) return { tileCount: done.tileCount, bytes: done.bytes, reused: true };
      const cache = await cacheOf(serviceItemId);
      if (cache.generation !== generation) throw supersededBuild();
      if (cache.serviceType === 'VectorTileServer') return buildVectorBundle(task, cache);
      const source = await rasterSource(cache);
      const range = source.rangeOf(task);
      const layers = range
        ? await rangeLayers(database, source.layers, source.storageSR, range, featuresAtOnce)
        : [];
      recordProgress({ level, row0, col0, metatiles: 0 });
      const out = await drawAndStore(task, cache, range, layers, source.pictures, (metatiles) =>
        recordProgress({ level, row0, col0, metatiles }),
      );
      await writeProgress(task.jobId, serviceItemId, generation);
      return out;
    },

    /**
     * Renders and stores a group of small bundles (workflows/tile-cache-bundles.ts GROUP_TILES), those an
     * earlier attempt finished skipped: each layer is read once for all of them, and their ranges are
     * drawn at once, so the drawing threads share them. Each bundle is stored and recorded as it is done,
     * as buildBundle does, so a retry redoes only the ones not recorded.
     */
    async buildBundles(task: BundleGroupTask): Promise<BundleGroupOutcome> {
      const { serviceItemId, generation } = task;
      const outcome: BundleGroupOutcome = { bundles: task.bundles.length, reused: 0, tileCount: 0, bytes: 0 };
      const todo: BundleTask[] = [];
      for (const b of task.bundles) {
        const done = await findBundle(db, serviceItemId, generation, b.level, b.row0, b.col0);
        if (!done) todo.push({ serviceItemId, generation, jobId: task.jobId, ...b });
        else {
          outcome.reused++;
          outcome.tileCount += done.tileCount;
          outcome.bytes += done.bytes;
        }
      }
      if (todo.length === 0) return outcome;
      const cache = await cacheOf(serviceItemId);
      if (cache.generation !== generation) throw supersededBuild();
      const add = (out: BundleOutcome) => {
        outcome.tileCount += out.tileCount;
        outcome.bytes += out.bytes;
      };
      let bundlesDone = 0;
      let metatiles = 0;
      const beat = () => recordProgress({ bundles: todo.length, bundlesDone, metatiles });
      beat();
      if (cache.serviceType === 'VectorTileServer') {
        for (const b of todo) {
          add(await buildVectorBundle(b, cache));
          bundlesDone++;
          beat();
        }
        return outcome;
      }
      const source = await rasterSource(cache);
      const ranges = todo.map((b) => source.rangeOf(b));
      const drawn = ranges.filter((r): r is TileRange => r !== undefined);
      // One read for the group where its ranges lie together (a city's low levels, one inside the next);
      // ranges far apart (the edge bundles of a deep level) are read each on its own, not the land between.
      const together = rangesLieTogether(drawn);
      const layers = together
        ? await rangesLayers(database, source.layers, source.storageSR, drawn, featuresAtOnce)
        : [];
      // Points cross to the drawing threads once, shared by every range, not copied for each.
      const shared = layers.map((l) =>
        l.features ? { ...l, features: unpackFeatures(packFeatures(l.features)) } : l,
      );
      const layersOf = async (range: TileRange | undefined) =>
        !range
          ? []
          : together
            ? shared
            : await rangeLayers(database, source.layers, source.storageSR, range, featuresAtOnce);
      const results = await Promise.allSettled(
        todo.map(async (b, i) => {
          const range = ranges[i];
          add(
            await drawAndStore(b, cache, range, await layersOf(range), source.pictures, () => {
              metatiles++;
              beat();
            }),
          );
          bundlesDone++;
          beat();
        }),
      );
      // Every bundle's drawing is let finish before a failure is thrown: none goes on unobserved.
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      await writeProgress(task.jobId, serviceItemId, generation);
      return outcome;
    },

    /**
     * Marks the cache ready with its totals and completes the job that asked for it. A build that a
     * later rebuild superseded leaves the status to that one (a refresh must not start under it).
     */
    async finishTileCache(serviceItemId: string, generation: number, jobId?: string): Promise<CacheTotals> {
      const totals = await bundleTotals(db, serviceItemId, generation);
      await updateTileCacheAt(db, serviceItemId, generation, {
        status: 'ready',
        tileCount: totals.tiles,
        modified: deps.now(),
      });
      if (jobId && (await findJob(db, jobId))) {
        await updateJobProgress(
          db,
          jobId,
          { bundlesDone: totals.bundles, tilesDone: totals.tiles },
          deps.now(),
        );
        await finishJob(db, jobId, 'completed', 'completed', deps.now());
      }
      return totals;
    },

    /** Marks the cache failed, unless `generation` is given and a later rebuild moved it on. */
    async failTileCache(
      serviceItemId: string,
      jobId: string | undefined,
      code: number,
      message: string,
      generation?: number,
    ) {
      const changes = { status: 'failed', modified: deps.now() };
      if (generation === undefined) await updateTileCache(db, serviceItemId, changes);
      else await updateTileCacheAt(db, serviceItemId, generation, changes);
      if (jobId) await finishJob(db, jobId, 'failed', JSON.stringify({ code, message }), deps.now());
    },

    /**
     * Starts a new generation (status building) and only then drops every object and bundle record of
     * the cache: the switch waits for edit refreshes writing into the old generation and keeps later
     * ones from writing, so nothing of the old generation lands after the removal. A retry after a
     * crash simply starts one more generation and removes again.
     */
    async resetTileCache(serviceItemId: string): Promise<number> {
      const generation = await beginRebuild(db, serviceItemId, deps.now());
      if (generation === undefined)
        throw internalError('Unable to complete operation.', [`Tile cache ${serviceItemId} does not exist.`]);
      await store.removePrefix(`${cachePrefix(serviceItemId)}_alllayers/`);
      await dropBundleRecords(db, serviceItemId);
      return generation;
    },

    /** The Map and Vector Tile Service caches drawn from a feature service, with their generations. */
    async cachesDrawnFrom(
      sourceServiceItemId: string,
    ): Promise<{ serviceItemId: string; generation: number }[]> {
      return (await tileCachesOfSource(db, sourceServiceItemId)).map((c) => ({
        serviceItemId: c.serviceItemId,
        generation: c.generation,
      }));
    },

    ...createTileRefreshActivities(deps),
  });
}

/** Puts an exploded bundle's tiles a few at a time. */
async function putTiles(tiles: readonly RenderedTile[], put: (t: RenderedTile) => Promise<unknown>) {
  let next = 0;
  const lane = async () => {
    while (next < tiles.length) await put(tiles[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(TILE_PUTS_AT_ONCE, tiles.length) }, lane));
}

const TILE_PUTS_AT_ONCE = 8;

/** A later rebuild reset the cache: this build's bundles would be of a generation no longer served. */
const supersededBuild = () =>
  ApplicationFailure.create({
    message: 'The cache was reset by another build.',
    type: 'CacheReset',
    nonRetryable: true,
  });

export type TileActivities = ReturnType<typeof createTileActivities>;
