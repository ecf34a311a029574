/** Who may read and who may change an item. Items the caller may not read look like missing ones. */
import type { Context } from 'hono';
import type { Database } from '../../db/client.js';
import { sharedWithUser } from '../../db/repositories/item-sharing.js';
import { findItem, type ItemRow } from '../../db/repositories/items.js';
import type { UserRow } from '../../db/repositories/users.js';
import { forbidden, itemNotFound } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { isAdmin } from './access.js';

export function canRead(item: ItemRow, viewer: UserRow | undefined): boolean {
  if (item.access === 'public') return true;
  if (!viewer) return false;
  return item.owner === viewer.username || item.access === 'org' || isAdmin(viewer);
}

export const canChange = (item: ItemRow, viewer: UserRow): boolean =>
  item.owner === viewer.username || isAdmin(viewer);

export function itemControl(item: ItemRow, viewer: UserRow | undefined): 'admin' | 'update' | undefined {
  if (!viewer) return undefined;
  if (isAdmin(viewer)) return 'admin';
  return item.owner === viewer.username ? 'update' : undefined;
}

/** canRead, plus items shared with a group the viewer belongs to. */
export async function canReadShared(
  db: Database,
  item: ItemRow,
  viewer: UserRow | undefined,
): Promise<boolean> {
  if (canRead(item, viewer)) return true;
  return viewer ? sharedWithUser(db, item.id, viewer.username) : false;
}

export async function readableItem(c: Context<AppEnv>, id: string): Promise<ItemRow> {
  const { db } = c.get('deps').database;
  const item = await findItem(db, id);
  if (!item || !(await canReadShared(db, item, c.get('user')))) throw itemNotFound();
  return item;
}

/**
 * The item of a `content/users/{u}/items/{id}` path for a change: it must belong to {u}, and the caller
 * must own it or administer the organization.
 */
export async function changeableItem(c: Context<AppEnv>): Promise<{ item: ItemRow; caller: UserRow }> {
  const caller = requireUser(c);
  const item = await readableItem(c, c.req.param('itemId') ?? '');
  if (item.owner.toLowerCase() !== (c.req.param('username') ?? '').toLowerCase()) throw itemNotFound();
  if (!canChange(item, caller)) throw forbidden();
  return { item, caller };
}
