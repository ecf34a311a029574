/** The item a portal request addresses, checked by lib/access. Items the caller may not read look like missing ones. */
import type { Context } from 'hono';
import { findReadableItem } from '../../db/repositories/access.js';
import type { ItemRow } from '../../db/repositories/items.js';
import type { UserRow } from '../../db/repositories/users.js';
import { canChange } from '../../lib/access/items.js';
import { sameUser } from '../../lib/access/roles.js';
import { badRequest, forbidden, type GeoError, itemNotFound } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { commaList } from './group-params.js';

export async function readableItem(c: Context<AppEnv>, id: string): Promise<ItemRow> {
  const item = await findReadableItem(c.get('deps').database.db, id, c.get('user'));
  if (!item) throw itemNotFound();
  return item;
}

/**
 * The item of a `content/users/{u}/items/{id}` path for a change: it must belong to {u}, and the caller
 * must own it or administer the organization.
 */
export async function changeableItem(c: Context<AppEnv>): Promise<{ item: ItemRow; caller: UserRow }> {
  const caller = requireUser(c);
  const item = await readableItem(c, c.req.param('itemId') ?? '');
  if (!sameUser(item.owner, c.req.param('username') ?? '')) throw itemNotFound();
  if (!canChange(item, caller)) throw forbidden();
  return { item, caller };
}

/** The most items one batch request (shareItems, unshareItems, moveItems, deleteItems) may name. */
export const MAX_BATCH_ITEMS = 1000;

/**
 * The items of a batch request, each with the item it names when {username} owns it and the caller may
 * change it, or the error ArcGIS reports for it in the batch's results.
 */
export type BatchItem =
  | { itemId: string; item: ItemRow; error?: undefined }
  | { itemId: string; item?: undefined; error: GeoError };

export async function batchOfItems(c: Context<AppEnv>, caller: UserRow): Promise<BatchItem[]> {
  const ids = [...new Set(commaList(c.get('params').get('items')))];
  if (ids.length === 0) throw badRequest('Invalid or missing input parameters.', ["'items' is required."]);
  if (ids.length > MAX_BATCH_ITEMS)
    throw badRequest('Invalid or missing input parameters.', [
      `'items' names ${ids.length} items; one request may name at most ${MAX_BATCH_ITEMS}.`,
    ]);
  const username = c.req.param('username') ?? '';
  const db = c.get('deps').database.db;
  return Promise.all(
    ids.map(async (itemId): Promise<BatchItem> => {
      const item = await findReadableItem(db, itemId, caller);
      if (!item || !sameUser(item.owner, username)) return { itemId, error: itemNotFound() };
      if (!canChange(item, caller)) return { itemId, error: forbidden() };
      return { itemId, item };
    }),
  );
}

/** An item's error in a batch's results: its code and message, as ArcGIS writes them. */
export const batchError = (e: GeoError) => {
  const { code, message } = e.toBody();
  return { code, message };
};
