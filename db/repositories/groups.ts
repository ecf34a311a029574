import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
import { groupMembers, groups } from '../schema/groups.js';

export type GroupRow = typeof groups.$inferSelect;
export type NewGroup = typeof groups.$inferInsert;
export type MemberType = 'owner' | 'admin' | 'member';
export interface Member {
  username: string;
  memberType: MemberType;
}

/** Creates a group with its owner as the first member. */
export async function insertGroup(db: Database, group: NewGroup): Promise<GroupRow> {
  return db.transaction(async (tx) => {
    const rows = await tx.insert(groups).values(group).returning();
    await tx
      .insert(groupMembers)
      .values({ groupId: group.id, username: group.owner, memberType: 'owner', joined: group.created });
    return rows[0]!;
  });
}

export async function findGroup(db: Database, id: string): Promise<GroupRow | undefined> {
  const rows = await db.select().from(groups).where(eq(groups.id, id)).limit(1);
  return rows[0];
}

export async function findGroupByTitle(db: Database, title: string): Promise<GroupRow | undefined> {
  const rows = await db.select().from(groups).where(sql`lower(${groups.title}) = lower(${title})`).limit(1);
  return rows[0];
}

export async function updateGroup(db: Database, id: string, changes: Partial<NewGroup>): Promise<void> {
  await db.update(groups).set(changes).where(eq(groups.id, id));
}

export async function deleteGroupRow(db: Database, id: string): Promise<void> {
  await db.delete(groups).where(eq(groups.id, id));
}

export async function groupMembersOf(db: Database, groupId: string): Promise<Member[]> {
  const rows = await db
    .select({ username: groupMembers.username, memberType: groupMembers.memberType })
    .from(groupMembers)
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(asc(groupMembers.username));
  return rows as Member[];
}

export async function membership(
  db: Database,
  groupId: string,
  username: string,
): Promise<MemberType | undefined> {
  const rows = await db
    .select({ memberType: groupMembers.memberType })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.username, username)))
    .limit(1);
  return rows[0]?.memberType as MemberType | undefined;
}

export async function addMember(
  db: Database,
  groupId: string,
  username: string,
  memberType: MemberType,
  at: number,
): Promise<void> {
  await db
    .insert(groupMembers)
    .values({ groupId, username, memberType, joined: at })
    .onConflictDoUpdate({ target: [groupMembers.groupId, groupMembers.username], set: { memberType } });
}

export async function removeMember(db: Database, groupId: string, username: string): Promise<void> {
  await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.username, username)));
}

/** Makes `target` the owner; the previous owner stays in the group as an ordinary member. */
export async function transferGroup(
  db: Database,
  group: GroupRow,
  target: string,
  at: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(groupMembers)
      .set({ memberType: 'member' })
      .where(and(eq(groupMembers.groupId, group.id), eq(groupMembers.username, group.owner)));
    await tx
      .insert(groupMembers)
      .values({ groupId: group.id, username: target, memberType: 'owner', joined: at })
      .onConflictDoUpdate({
        target: [groupMembers.groupId, groupMembers.username],
        set: { memberType: 'owner' },
      });
    await tx.update(groups).set({ owner: target, modified: at }).where(eq(groups.id, group.id));
  });
}

/** The groups a user belongs to, with the user's member type. */
export async function groupsOfUser(
  db: Database,
  username: string,
): Promise<(GroupRow & { memberType: MemberType })[]> {
  const rows = await db
    .select({ group: groups, memberType: groupMembers.memberType })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(eq(groupMembers.username, username))
    .orderBy(asc(groups.title));
  return rows.map((r) => ({ ...r.group, memberType: r.memberType as MemberType }));
}
