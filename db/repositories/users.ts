import { and, asc, desc, eq, gt, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
import { collaborations } from '../schema/collaborations.js';
import { groups } from '../schema/groups.js';
import { items } from '../schema/items.js';
import { tokens, users } from '../schema/users.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export async function findUser(db: Database, username: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return rows[0];
}

export async function insertUser(db: Database, user: NewUser): Promise<UserRow> {
  const rows = await db.insert(users).values(user).returning();
  return rows[0]!;
}

export async function countUsers(db: Database): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return rows[0]?.n ?? 0;
}

export async function recordLogin(db: Database, username: string, at: number): Promise<void> {
  await db.update(users).set({ lastLogin: at }).where(eq(users.username, username));
}

export async function insertToken(db: Database, row: typeof tokens.$inferInsert): Promise<void> {
  await db.insert(tokens).values(row);
}

/** The user a token belongs to, if the token exists and has not expired. */
export async function findTokenUser(
  db: Database,
  hash: string,
  now: number,
): Promise<{ user: UserRow; expires: number; referer: string | null; ip: string | null } | undefined> {
  const rows = await db
    .select({ user: users, expires: tokens.expires, referer: tokens.referer, ip: tokens.ip })
    .from(tokens)
    .innerJoin(users, eq(tokens.username, users.username))
    .where(and(eq(tokens.hash, hash), gt(tokens.expires, now)))
    .limit(1);
  return rows[0];
}

/** Revokes one token (and, through the foreign key, the server tokens exchanged from it). */
export async function deleteToken(db: Database, hash: string): Promise<boolean> {
  const rows = await db.delete(tokens).where(eq(tokens.hash, hash)).returning({ hash: tokens.hash });
  return rows.length > 0;
}

/** Revokes every token of a user: a changed or reset password signs the user out everywhere. */
export async function deleteUserTokens(db: Database, username: string): Promise<void> {
  await db.delete(tokens).where(eq(tokens.username, username));
}

export async function deleteExpiredTokens(db: Database, now: number): Promise<void> {
  await db.delete(tokens).where(lt(tokens.expires, now));
}

export async function updateUser(db: Database, username: string, changes: Partial<NewUser>): Promise<void> {
  await db.update(users).set(changes).where(eq(users.username, username));
}

export async function deleteUserRow(db: Database, username: string): Promise<void> {
  await db.delete(users).where(eq(users.username, username));
}

export type UserSortField = 'username' | 'fullname' | 'created' | 'modified' | 'role';

export interface UserListing {
  /** Words matched against username, full name and email, any letter case. */
  words: string[];
  usernames: string[];
  roles: string[];
  offset: number;
  limit: number;
  sortField: UserSortField;
  sortOrder: 'asc' | 'desc';
}

const USER_SORT = {
  username: users.username,
  fullname: users.fullName,
  created: users.created,
  modified: users.modified,
  role: users.role,
} as const;

export async function listUsers(db: Database, q: UserListing): Promise<{ total: number; rows: UserRow[] }> {
  const conditions: SQL[] = [];
  for (const word of q.words) {
    const like = `%${escapeLike(word)}%`;
    conditions.push(or(ilike(users.username, like), ilike(users.fullName, like), ilike(users.email, like))!);
  }
  if (q.usernames.length > 0) {
    conditions.push(
      or(...q.usernames.map((u) => ilike(users.username, escapeLike(u).replaceAll('*', '%'))))!,
    );
  }
  if (q.roles.length > 0) conditions.push(inArray(users.role, q.roles));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const column = USER_SORT[q.sortField];
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(q.sortOrder === 'desc' ? desc(column) : asc(column), asc(users.username))
    .offset(q.offset)
    .limit(q.limit);
  return { total: n, rows };
}

/** What a user still owns; a user who owns anything cannot be removed. */
export async function ownedContent(
  db: Database,
  username: string,
): Promise<{ items: number; groups: number; collaborations: number }> {
  const counted = async (table: typeof items | typeof groups | typeof collaborations) => {
    const rows = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(eq(table.owner, username));
    return rows[0]?.n ?? 0;
  };
  const [ownItems, ownGroups, ownCollaborations] = await Promise.all([
    counted(items),
    counted(groups),
    counted(collaborations),
  ]);
  return { items: ownItems, groups: ownGroups, collaborations: ownCollaborations };
}

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

export async function countAdmins(db: Database): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, 'org_admin'), eq(users.disabled, false)));
  return rows[0]?.n ?? 0;
}
