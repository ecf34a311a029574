/**
 * When a Map Service or Vector Tile Service item is deleted, its cache goes too: a running build is stopped,
 * the cache objects under caches/<id>/ removed, and the cache row (with its bundle records) deleted.
 */
import type { ItemRow } from '../../db/repositories/items.js';
import { deleteTileCache, findTileCache } from '../../db/repositories/tile-caches.js';
import { cachePrefix } from '../../infra/tile-cache-store.js';
import { tileCacheRefreshWorkflowId } from '../../workflows/tile-cache-messages.js';
import type { AppDeps } from '../env.js';
import { stopRunningJobs } from '../publish/service-deletion.js';

export async function deleteTileService(item: ItemRow, deps: AppDeps): Promise<void> {
  if (item.type !== 'Map Service' && item.type !== 'Vector Tile Service') return;
  const db = deps.database.db;
  await stopRunningJobs(deps, item.id);
  await stopRefresh(deps, item.id);
  if (!(await findTileCache(db, item.id))) return;
  await deps.store.removePrefix(cachePrefix(item.id));
  await deleteTileCache(db, item.id);
}

/** An edit refresh still drawing would write bundles after the objects are removed: stop it first. */
async function stopRefresh(deps: AppDeps, serviceItemId: string): Promise<void> {
  try {
    const client = await deps.temporal();
    await client.workflow.getHandle(tileCacheRefreshWorkflowId(serviceItemId)).terminate('service deleted');
  } catch {
    // No refresh running (or none ever started): nothing to stop.
  }
}
