/**
 * The tile cache workflows' inputs, results and progress query: shared by the workflows and the API
 * that starts them. Payloads are ids and counts only; tiles never enter the history.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { Bounds } from '../lib/geometry/types.js';

export const TILE_CACHE_BUILD_WORKFLOW = 'tileCacheBuildWorkflow';
export const TILE_PUBLISH_WORKFLOW = 'tilePublishWorkflow';
export const TILE_CACHE_REFRESH_WORKFLOW = 'tileCacheRefreshWorkflow';

export interface TileCacheBuildInput {
  serviceItemId: string;
  /** The publish job to complete when the cache is built (absent for a plain rebuild). */
  jobId?: string;
  /** Drop the existing tiles first (the data changed). */
  reset?: boolean;
  /**
   * Bundle activities in flight at once (default 4; 3 in a run begun before the patch
   * `bundles-four-in-flight`). Each draws on the worker's shared drawing threads, so more in flight
   * overlaps one activity's reads and stores with another's drawing rather than drawing more at once.
   */
  concurrency?: number;
  /**
   * The most tiles a group of small consecutive bundles drawn in one activity holds (default
   * GROUP_TILES in tile-cache-bundles.ts; 0: every bundle in an activity of its own).
   */
  groupTiles?: number;
  /** Set by continue-as-new: where the previous run stopped, and its counts. */
  resume?: {
    generation: number;
    nextBundle: number;
    tiles: number;
    bundlesReused: number;
    /** The run's bundle order (absent: a run begun before builds went deepest level first). */
    deepestFirst?: boolean;
    /** The run draws small bundles in groups (absent: a run begun before builds grouped them). */
    grouped?: boolean;
  };
}

export interface TileCacheProgress {
  /** preparing | building | finishing | completed | failed */
  phase: string;
  minLevel: number;
  maxLevel: number;
  bundlesTotal: number;
  bundlesDone: number;
  /** Bundles found finished by an earlier attempt and skipped. */
  bundlesReused: number;
  tilesDone: number;
}

export interface TileCacheBuildResult {
  serviceItemId: string;
  bundles: number;
  tiles: number;
  bytes: number;
}

export type TilePublishKind =
  | 'featureService'
  | 'featureServiceVectorTiles'
  | 'tilePackage'
  | 'vectorTilePackage';

export interface TilePublishInput {
  jobId: string;
  serviceItemId: string;
  kind: TilePublishKind;
  buildInitialCache: boolean;
}

export const tileCacheProgressQuery = defineQuery<TileCacheProgress>('tileCacheProgress');

export const tileCacheBuildWorkflowId = (serviceItemId: string, generation: number | 'publish'): string =>
  `tile-cache-${serviceItemId}-${generation}`;
export const tilePublishWorkflowId = (jobId: string): string => `publish-${jobId}`;

/** One running refresh per cache: edits signal it (signal-with-start) instead of starting their own. */
export interface TileCacheRefreshInput {
  serviceItemId: string;
  /** Areas (Web Mercator) not yet refreshed, carried over by continue-as-new. */
  pending?: Bounds[];
}

export interface TileCacheRefreshResult {
  serviceItemId: string;
  /** Area refreshes done (each ends in a new generation). */
  rounds: number;
  bundlesWritten: number;
  tilesDrawn: number;
  tilesRemoved: number;
  /** Bundles rewritten without their dead bytes instead of appended to. */
  bundlesCompacted: number;
  generation: number;
}

/** Edited areas (Web Mercator envelopes of the old and new geometries) to draw again. */
export const refreshAreasSignal = defineSignal<[{ areas: Bounds[] }]>('refreshAreas');
export const tileCacheRefreshProgressQuery = defineQuery<TileCacheRefreshResult & { phase: string }>(
  'tileCacheRefreshProgress',
);
export const tileCacheRefreshWorkflowId = (serviceItemId: string): string =>
  `tile-cache-refresh-${serviceItemId}`;
