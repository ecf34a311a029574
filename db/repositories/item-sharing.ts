import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
import { groupMembers } from '../schema/groups.js';
import { itemGroups } from '../schema/items.js';

export async function shareWithGroup(db: Database, itemId: string, groupId: string, by: string, at: number) {
  await db.insert(itemGroups).values({ itemId, groupId, sharedBy: by, created: at }).onConflictDoNothing();
}

export async function unshareFromGroups(db: Database, itemId: string, groupIds: string[]): Promise<void> {
  if (groupIds.length === 0) return;
  await db
    .delete(itemGroups)
    .where(and(eq(itemGroups.itemId, itemId), inArray(itemGroups.groupId, groupIds)));
}

export async function itemGroupIds(db: Database, itemId: string): Promise<string[]> {
  const rows = await db
    .select({ id: itemGroups.groupId })
    .from(itemGroups)
    .where(eq(itemGroups.itemId, itemId));
  return rows.map((r) => r.id);
}

/** Whether the item is shared with a group the user belongs to. */
export async function sharedWithUser(db: Database, itemId: string, username: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(itemGroups)
    .innerJoin(groupMembers, eq(groupMembers.groupId, itemGroups.groupId))
    .where(and(eq(itemGroups.itemId, itemId), eq(groupMembers.username, username)))
    .limit(1);
  return rows.length > 0;
}
