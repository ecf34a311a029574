import { eq } from 'drizzle-orm';
import type { Database } from '../client.js';
import { itemRelationships, items } from '../schema/items.js';

export type ItemRow = typeof items.$inferSelect;
export type NewItem = typeof items.$inferInsert;

export async function insertItem(db: Database, item: NewItem): Promise<ItemRow> {
  const rows = await db.insert(items).values(item).returning();
  return rows[0]!;
}

export async function findItem(db: Database, id: string): Promise<ItemRow | undefined> {
  const rows = await db.select().from(items).where(eq(items.id, id)).limit(1);
  return rows[0];
}

export async function updateItem(db: Database, id: string, changes: Partial<NewItem>): Promise<void> {
  await db.update(items).set(changes).where(eq(items.id, id));
}

export async function deleteItemRow(db: Database, id: string): Promise<void> {
  await db.delete(items).where(eq(items.id, id));
}

/** Adds a relationship; adding the same one twice is a no-op (callers that must reject duplicates check first). */
export async function insertRelationship(
  db: Database,
  rel: typeof itemRelationships.$inferInsert,
): Promise<void> {
  await db.insert(itemRelationships).values(rel).onConflictDoNothing();
}
