/**
 * Deleting an item everywhere: the app's deletion hooks (`deps.itemDeletionHooks`: the publisher drops a
 * hosted feature service's tables, a tile service its cache), then its MinIO objects, then the row, whose
 * relationships cascade with it.
 */
import type { ItemRow } from '../../db/repositories/items.js';
import { deleteItemRow, findItem, relationshipsOf } from '../../db/repositories/items.js';
import { canChange } from '../../lib/access/items.js';
import type { Principal } from '../../lib/access/roles.js';
import type { AppDeps } from '../env.js';
import { itemPrefix } from './item-data.js';
import { COMPOSITE_DELETE_TYPES } from './relationship-types.js';

/** Runs before an item is deleted; a hook that throws stops the deletion and reports the error. */
export type ItemDeletionHook = (item: ItemRow, deps: AppDeps) => Promise<void>;

/**
 * Deletes `item` for `caller`. Composite relationships (an attachment, an app's code) delete their
 * destination with the origin, first, but only a destination the caller could delete themself (owner
 * or administrator) and that is not delete-protected; otherwise only the relationship goes with the
 * origin's row. Without a caller no destination is deleted.
 */
export async function deleteItemEverywhere(
  deps: AppDeps,
  item: ItemRow,
  caller?: Principal,
  seen = new Set<string>(),
): Promise<void> {
  seen.add(item.id);
  const rels = await relationshipsOf(deps.database.db, item.id);
  for (const rel of rels) {
    if (rel.originItemId !== item.id || !COMPOSITE_DELETE_TYPES.has(rel.relationshipType)) continue;
    if (seen.has(rel.destinationItemId)) continue;
    const destination = await findItem(deps.database.db, rel.destinationItemId);
    if (destination && !destination.protected && canChange(destination, caller))
      await deleteItemEverywhere(deps, destination, caller, seen);
  }
  for (const hook of deps.itemDeletionHooks) await hook(item, deps);
  await deps.store.removePrefix(itemPrefix(item.id));
  await deleteItemRow(deps.database.db, item.id);
}
