/** The item a portal request addresses, checked by lib/access. Items the caller may not read look like missing ones. */
import type { Context } from 'hono';
import { findReadableItem } from '../../db/repositories/access.js';
import type { ItemRow } from '../../db/repositories/items.js';
import type { UserRow } from '../../db/repositories/users.js';
import { canChange } from '../../lib/access/items.js';
import { sameUser } from '../../lib/access/roles.js';
import { forbidden, itemNotFound } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';

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
