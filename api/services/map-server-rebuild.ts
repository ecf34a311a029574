/**
 * Rebuilding caches when their data changes: every cache drawn from a feature service is reset (its
 * objects dropped, a new generation begun, so served ETags change) and built again by the standalone
 * tile cache workflow. Editing and re-publishing call `rebuildTileCachesOf`; owners can also ask for
 * it through `MapServer/updateTiles`.
 */

import type { Client } from '@temporalio/client';
import type { Database } from '../../db/client.js';
import { type TileCacheRow, tileCachesOfSource } from '../../db/repositories/tile-caches.js';
import type { tileCacheBuildWorkflow } from '../../workflows/tile-cache-build.js';
import {
  TILE_CACHE_BUILD_WORKFLOW,
  type TileCacheBuildInput,
  tileCacheBuildWorkflowId,
} from '../../workflows/tile-cache-messages.js';

export interface RebuildDeps {
  db: Database;
  temporal: () => Promise<Client>;
  taskQueue: string;
}

/** Starts a reset-and-rebuild of one cache; returns the workflow id (one per generation it replaces). */
export async function rebuildTileCache(deps: RebuildDeps, cache: TileCacheRow): Promise<string> {
  const client = await deps.temporal();
  const workflowId = tileCacheBuildWorkflowId(cache.serviceItemId, cache.generation);
  const input: TileCacheBuildInput = { serviceItemId: cache.serviceItemId, reset: true };
  await client.workflow.start<typeof tileCacheBuildWorkflow>(TILE_CACHE_BUILD_WORKFLOW, {
    taskQueue: deps.taskQueue,
    workflowId,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [input],
    memo: { serviceItemId: cache.serviceItemId, reason: 'data changed' },
  });
  return workflowId;
}

/** Rebuilds every cache drawn from a feature service (after its data was edited or re-published). */
export async function rebuildTileCachesOf(deps: RebuildDeps, sourceServiceItemId: string): Promise<string[]> {
  const ids: string[] = [];
  for (const cache of await tileCachesOfSource(deps.db, sourceServiceItemId))
    ids.push(await rebuildTileCache(deps, cache));
  return ids;
}
