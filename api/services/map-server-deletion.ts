/**
 * When a Map Service or Vector Tile Service item is deleted, its cache goes too: a running build is stopped,
 * the cache objects under caches/<id>/ removed, and the cache row (with its bundle records) deleted.
 */
import type { ItemRow } from '../../db/repositories/items.js';
import { jobsForItem } from '../../db/repositories/jobs.js';
import { deleteTileCache, findTileCache } from '../../db/repositories/tile-caches.js';
import { cachePrefix } from '../../infra/tile-cache-store.js';
import type { AppDeps } from '../env.js';
import { registerItemDeletionHook } from '../portal/item-removal.js';

export async function deleteTileService(item: ItemRow, deps: AppDeps): Promise<void> {
  if (item.type !== 'Map Service' && item.type !== 'Vector Tile Service') return;
  const db = deps.database.db;
  for (const job of (await jobsForItem(db, item.id)).filter((j) => j.status === 'processing')) {
    try {
      const client = await deps.temporal();
      await client.workflow.getHandle(job.workflowId).terminate('The service item was deleted.');
    } catch {
      // Already closed, or Temporal is down: the objects and rows are removed below either way.
    }
  }
  if (!(await findTileCache(db, item.id))) return;
  await deps.store.removePrefix(cachePrefix(item.id));
  await deleteTileCache(db, item.id);
}

registerItemDeletionHook(deleteTileService);
