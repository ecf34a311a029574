/**
 * Files uploaded in parts (addItem or update with multipart=true, then addPart and commit): the row
 * says an upload is partial until its commit, and completed after. The parts themselves are objects
 * under the item's prefix (api/portal/item-uploads.ts), so deleting the item removes them too.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
import { itemUploads } from '../schema/items.js';

export type ItemUploadRow = typeof itemUploads.$inferSelect;

/** Starts (or starts again) the item's upload of `filename` in parts. */
export async function startUpload(
  db: Database,
  itemId: string,
  filename: string,
  now: number,
): Promise<void> {
  const row = { itemId, filename, status: 'partial' as const, created: now };
  await db
    .insert(itemUploads)
    .values(row)
    .onConflictDoUpdate({
      target: itemUploads.itemId,
      set: { filename, status: 'partial', bytes: 0, created: now },
    });
}

export async function findUpload(db: Database, itemId: string): Promise<ItemUploadRow | undefined> {
  const rows = await db.select().from(itemUploads).where(eq(itemUploads.itemId, itemId)).limit(1);
  return rows[0];
}

export async function completeUpload(db: Database, itemId: string): Promise<void> {
  await db.update(itemUploads).set({ status: 'completed' }).where(eq(itemUploads.itemId, itemId));
}

export async function removeUpload(db: Database, itemId: string): Promise<void> {
  await db.delete(itemUploads).where(eq(itemUploads.itemId, itemId));
}

/**
 * Counts `delta` more bytes (a part's size less the size of the part it replaces) into a partial upload,
 * only while the total stays within `limit`; false when the upload is not partial or would pass it.
 */
export async function countUploadBytes(
  db: Database,
  itemId: string,
  delta: number,
  limit: number,
): Promise<boolean> {
  const rows = await db
    .update(itemUploads)
    .set({ bytes: sql`${itemUploads.bytes} + ${delta}` })
    .where(
      and(
        eq(itemUploads.itemId, itemId),
        eq(itemUploads.status, 'partial'),
        sql`${itemUploads.bytes} + ${delta} <= ${limit}`,
      ),
    )
    .returning({ bytes: itemUploads.bytes });
  return rows.length > 0;
}

/** An item added with async=true: added by the time addItem answers, so its status is completed at once. */
export async function recordCompletedAdd(
  db: Database,
  itemId: string,
  filename: string,
  now: number,
): Promise<void> {
  await db.insert(itemUploads).values({ itemId, filename, status: 'completed', created: now });
}
