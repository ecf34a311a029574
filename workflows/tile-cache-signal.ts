/**
 * How a job's workflow asks the tile caches drawn from a service it edited to draw the touched areas
 * again: it signals the cache's one refresh run, or starts it (abandoned, so it outlives the job).
 */
import { getExternalWorkflowHandle, log, ParentClosePolicy, startChild } from '@temporalio/workflow';
import type { Bounds } from '../lib/geometry/types.js';
import { refreshAreasSignal, tileCacheRefreshWorkflowId } from './tile-cache-messages.js';
import { tileCacheRefreshWorkflow } from './tile-cache-refresh.js';

/** Signals the cache's refresh run, starting it (areas as its first pending ones) when none runs. */
export async function refreshCache(cacheItemId: string, areas: Bounds[]): Promise<void> {
  const workflowId = tileCacheRefreshWorkflowId(cacheItemId);
  try {
    await getExternalWorkflowHandle(workflowId).signal(refreshAreasSignal, { areas });
    return;
  } catch {
    // No run: start one below.
  }
  try {
    await startChild(tileCacheRefreshWorkflow, {
      workflowId,
      args: [{ serviceItemId: cacheItemId, pending: areas }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch {
    // Started meanwhile by an edit's signal: signal that run.
    await getExternalWorkflowHandle(workflowId).signal(refreshAreasSignal, { areas });
  }
}

/**
 * Every cache asked to draw `areas` again. The edit is committed and stays so: a cache that cannot be
 * signalled is logged, not fatal.
 */
export async function refreshCaches(caches: readonly string[], areas: Bounds[]): Promise<void> {
  for (const cache of areas.length > 0 ? caches : []) {
    await refreshCache(cache, areas).catch((e: unknown) =>
      log.warn('tile cache refresh could not be started', { cache, error: String(e) }),
    );
  }
}
