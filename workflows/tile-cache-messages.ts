/**
 * The tile cache workflows' inputs, results and progress query: shared by the workflows and the API
 * that starts them. Payloads are ids and counts only; tiles never enter the history.
 */
import { defineQuery } from '@temporalio/workflow';

export const TILE_CACHE_BUILD_WORKFLOW = 'tileCacheBuildWorkflow';
export const TILE_PUBLISH_WORKFLOW = 'tilePublishWorkflow';

export interface TileCacheBuildInput {
  serviceItemId: string;
  /** The publish job to complete when the cache is built (absent for a plain rebuild). */
  jobId?: string;
  /** Drop the existing tiles first (the data changed). */
  reset?: boolean;
  /** Bundles rendered at once (default 3: one per core plus one waiting on I/O). */
  concurrency?: number;
  /** Set by continue-as-new: where the previous run stopped, and its counts. */
  resume?: { generation: number; nextBundle: number; tiles: number; bundlesReused: number };
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

export type TilePublishKind = 'featureService' | 'tilePackage' | 'vectorTilePackage';

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
