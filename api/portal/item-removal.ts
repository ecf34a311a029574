/**
 * Deleting an item everywhere: the app's deletion hooks (`deps.itemDeletionHooks`: the publisher drops a
 * hosted feature service's tables, a tile service its cache), then its MinIO objects, then the row, whose
 * relationships cascade with it.
 */
import type { ItemRow } from '../../db/repositories/items.js';
import { deleteItemRow, findItem, relationshipsOf } from '../../db/repositories/items.js';
import type { AppDeps } from '../env.js';
import { itemPrefix } from './item-data.js';
import { COMPOSITE_DELETE_TYPES } from './relationship-types.js';

/** Runs before an item is deleted; a hook that throws stops the deletion and reports the error. */
export type ItemDeletionHook = (item: ItemRow, deps: AppDeps) => Promise<void>;

export async function deleteItemEverywhere(
  deps: AppDeps,
  item: ItemRow,
  seen = new Set<string>(),
): Promise<void> {
  seen.add(item.id);
  // Composite relationships: the destination (an attachment, an app's code) is deleted with its origin first.
  const rels = await relationshipsOf(deps.database.db, item.id);
  for (const rel of rels) {
    if (rel.originItemId !== item.id || !COMPOSITE_DELETE_TYPES.has(rel.relationshipType)) continue;
    if (seen.has(rel.destinationItemId)) continue;
    const destination = await findItem(deps.database.db, rel.destinationItemId);
    if (destination) await deleteItemEverywhere(deps, destination, seen);
  }
  for (const hook of deps.itemDeletionHooks) await hook(item, deps);
  await deps.store.removePrefix(itemPrefix(item.id));
  await deleteItemRow(deps.database.db, item.id);
}
