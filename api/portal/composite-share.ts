/**
 * Sharing that follows relationships: types with compositeShare (a web app and its code, a web map and
 * its app configuration, an item and its attached documents) share and unshare their destinations with
 * their origin, and types with copyOriginShareOnAdd give a new destination its origin's sharing. Only
 * destinations the caller may change are touched.
 */
import type { Database } from '../../db/client.js';
import { itemGroupIds, shareWithGroup } from '../../db/repositories/item-sharing.js';
import { findItem, type ItemRow, relationshipsOf, updateItem } from '../../db/repositories/items.js';
import type { UserRow } from '../../db/repositories/users.js';
import { canChange } from '../../lib/access/items.js';
import { COMPOSITE_SHARE_TYPES } from './relationship-types.js';

/**
 * The items reached from `item` through compositeShare relationships (origin to destination, then
 * on from there), each once, that `caller` may change.
 */
export async function compositeShareDestinations(
  db: Database,
  item: ItemRow,
  caller: UserRow,
): Promise<ItemRow[]> {
  const seen = new Set([item.id]);
  const found: ItemRow[] = [];
  const queue = [item.id];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const rel of await relationshipsOf(db, id)) {
      if (rel.originItemId !== id || !COMPOSITE_SHARE_TYPES.has(rel.relationshipType)) continue;
      if (seen.has(rel.destinationItemId)) continue;
      seen.add(rel.destinationItemId);
      const destination = await findItem(db, rel.destinationItemId);
      if (!destination || !canChange(destination, caller)) continue;
      found.push(destination);
      queue.push(destination.id);
    }
  }
  return found;
}

/** Gives `to` the sharing of `from`: its access level and its groups (groups `to` has stay). */
export async function copySharing(
  db: Database,
  from: ItemRow,
  to: ItemRow,
  by: string,
  at: number,
): Promise<void> {
  for (const groupId of await itemGroupIds(db, from.id)) await shareWithGroup(db, to.id, groupId, by, at);
  const groups = await itemGroupIds(db, to.id);
  const rank = { private: 0, shared: 1, org: 2, public: 3 } as Record<string, number>;
  let access = (rank[from.access] ?? 0) >= (rank[to.access] ?? 0) ? from.access : to.access;
  if (access === 'private' && groups.length > 0) access = 'shared';
  if (access !== to.access) await updateItem(db, to.id, { access, modified: at });
}
