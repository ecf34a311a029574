/** Requests to join groups: made by the applicant, listed, accepted (membership) or declined by group admins. */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../client.js';
import { groupApplications, groupMembers } from '../schema/groups.js';
import { users } from '../schema/users.js';

export interface GroupApplication {
  username: string;
  fullName: string;
  comments: string;
  created: number;
}

/** Records (or renews) a user's request to join; asking twice keeps one request. */
export async function applyToGroup(
  db: Database,
  groupId: string,
  username: string,
  comments: string,
  at: number,
): Promise<void> {
  await db
    .insert(groupApplications)
    .values({ groupId, username, comments, created: at })
    .onConflictDoUpdate({
      target: [groupApplications.groupId, groupApplications.username],
      set: { comments, created: at },
    });
}

export async function applicationsOf(db: Database, groupId: string): Promise<GroupApplication[]> {
  return db
    .select({
      username: groupApplications.username,
      fullName: users.fullName,
      comments: groupApplications.comments,
      created: groupApplications.created,
    })
    .from(groupApplications)
    .innerJoin(users, eq(users.username, groupApplications.username))
    .where(eq(groupApplications.groupId, groupId))
    .orderBy(asc(groupApplications.created), asc(groupApplications.username));
}

/** Removes a request; false when there was none. */
export async function removeApplication(db: Database, groupId: string, username: string): Promise<boolean> {
  const rows = await db
    .delete(groupApplications)
    .where(and(eq(groupApplications.groupId, groupId), eq(groupApplications.username, username)))
    .returning({ username: groupApplications.username });
  return rows.length > 0;
}

/** Accepts a request in one transaction: the applicant becomes a member; false when there was none. */
export async function acceptApplication(
  db: Database,
  groupId: string,
  username: string,
  at: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .delete(groupApplications)
      .where(and(eq(groupApplications.groupId, groupId), eq(groupApplications.username, username)))
      .returning({ username: groupApplications.username });
    if (rows.length === 0) return false;
    await tx
      .insert(groupMembers)
      .values({ groupId, username, memberType: 'member', joined: at })
      .onConflictDoNothing();
    return true;
  });
}
