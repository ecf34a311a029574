/**
 * After committed edits of a hosted feature service, every tile cache drawn from it has the touched
 * part drawn again. The edit request only signals: one refresh workflow per cache (signal-with-start on
 * an id derived from the cache's) collects the areas and draws them in rounds, so quick edits merge
 * instead of piling up concurrent redraws of the same bundles. A round ends by switching the cache to a
 * new generation, which changes the served ETags and the servers' in-memory tile keys.
 */

import { cacheRefreshTargets } from '../../db/repositories/cache-refresh-targets.js';
import type { Bounds } from '../../lib/geometry/types.js';
import {
  refreshAreasSignal,
  TILE_CACHE_REFRESH_WORKFLOW,
  type TileCacheRefreshInput,
  tileCacheRefreshWorkflowId,
} from '../../workflows/tile-cache-messages.js';
import type { tileCacheRefreshWorkflow } from '../../workflows/tile-cache-refresh.js';
import type { AppDeps } from '../env.js';

/**
 * Asks every cache drawn from `sourceServiceItemId` to draw again the tiles meeting `areas` (envelopes
 * of the old and new geometries of committed edits, in the service's storage spatial reference).
 * Returns once the refreshes are signalled; drawing happens in the worker. A failure to reach Temporal
 * is logged, not thrown: the edit is committed and must be reported as such.
 */
export async function refreshCachesAfterEdit(
  deps: AppDeps,
  sourceServiceItemId: string,
  areas: Bounds[],
): Promise<void> {
  const { caches, areas: mercatorAreas } = await cacheRefreshTargets(
    deps.database.db,
    sourceServiceItemId,
    areas,
  );
  if (caches.length === 0) return;
  try {
    const client = await deps.temporal();
    for (const cache of caches) {
      const input: TileCacheRefreshInput = { serviceItemId: cache };
      await client.workflow.signalWithStart<typeof tileCacheRefreshWorkflow, [{ areas: Bounds[] }]>(
        TILE_CACHE_REFRESH_WORKFLOW,
        {
          taskQueue: deps.config.temporal.taskQueue,
          workflowId: tileCacheRefreshWorkflowId(cache),
          args: [input],
          signal: refreshAreasSignal,
          signalArgs: [{ areas: mercatorAreas }],
          memo: { serviceItemId: cache, reason: 'features edited' },
        },
      );
    }
  } catch (err) {
    deps.log.warn('tile cache refresh could not be started', {
      sourceServiceItemId,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
