/**
 * Deleting an item everywhere: hooks registered by other parts (the publisher drops a hosted feature
 * service's tables), then its MinIO objects, then the row, whose relationships cascade with it.
 */
import type { ItemRow } from '../../db/repositories/items.js';
import { deleteItemRow } from '../../db/repositories/items.js';
import type { AppDeps } from '../env.js';
import { itemPrefix } from './item-data.js';

export type ItemDeletionHook = (item: ItemRow, deps: AppDeps) => Promise<void>;

// A process-wide registry on purpose: the hooks are static wiring, registered once at import time.
const hooks: ItemDeletionHook[] = [];

/** Runs `hook` before every item deletion; a hook that throws stops the deletion and reports the error. */
export function registerItemDeletionHook(hook: ItemDeletionHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

export async function deleteItemEverywhere(deps: AppDeps, item: ItemRow): Promise<void> {
  for (const hook of hooks) await hook(item, deps);
  await deps.store.removePrefix(itemPrefix(item.id));
  await deleteItemRow(deps.database.db, item.id);
}
