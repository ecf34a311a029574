import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
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
): Promise<{ user: UserRow; expires: number; referer: string | null } | undefined> {
  const rows = await db
    .select({ user: users, expires: tokens.expires, referer: tokens.referer })
    .from(tokens)
    .innerJoin(users, eq(tokens.username, users.username))
    .where(and(eq(tokens.hash, hash), gt(tokens.expires, now)))
    .limit(1);
  return rows[0];
}

export async function deleteExpiredTokens(db: Database, now: number): Promise<void> {
  await db.delete(tokens).where(lt(tokens.expires, now));
}
