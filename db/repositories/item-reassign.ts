/**
 * An item changing owner: the item row (owner and folder) and, when the item is a hosted service or a
 * tile cache, that row's owner, in one transaction. Sharing, relationships and the service's data stay.
 */
import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../client.js';
import { items } from '../schema/items.js';
import { hostedServices } from '../schema/publishing.js';
import { tileCaches } from '../schema/tile-caches.js';

export async function reassignItemRows(
  database: DatabaseHandle,
  itemId: string,
  change: { owner: string; folderId: string | null; modified: number },
): Promise<void> {
  await database.transaction(async (tx) => {
    await tx.db.update(items).set(change).where(eq(items.id, itemId));
    await tx.db
      .update(hostedServices)
      .set({ owner: change.owner })
      .where(eq(hostedServices.serviceItemId, itemId));
    await tx.db.update(tileCaches).set({ owner: change.owner }).where(eq(tileCaches.serviceItemId, itemId));
  });
}
