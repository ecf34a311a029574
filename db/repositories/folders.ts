import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
import { folders } from '../schema/items.js';

export type FolderRow = typeof folders.$inferSelect;

export async function insertFolder(db: Database, folder: FolderRow): Promise<FolderRow> {
  const rows = await db.insert(folders).values(folder).returning();
  return rows[0]!;
}

/** A folder of `owner` by id or title (clients use both in paths). */
export async function findFolder(
  db: Database,
  owner: string,
  idOrTitle: string,
): Promise<FolderRow | undefined> {
  const rows = await db
    .select()
    .from(folders)
    .where(
      and(
        eq(folders.owner, owner),
        sql`(${folders.id} = ${idOrTitle} or lower(${folders.title}) = lower(${idOrTitle}))`,
      ),
    )
    .limit(1);
  return rows[0];
}

export async function listFolders(db: Database, owner: string): Promise<FolderRow[]> {
  return db.select().from(folders).where(eq(folders.owner, owner)).orderBy(asc(folders.title));
}

export async function deleteFolderRow(db: Database, id: string): Promise<void> {
  await db.delete(folders).where(eq(folders.id, id));
}
