import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
import { passwordHistory, passwordPolicies } from '../schema/security-policy.js';

export type PolicyRow = typeof passwordPolicies.$inferSelect;
export type PolicyValues = Omit<PolicyRow, 'singleton' | 'created' | 'modified'>;

/** The stored custom policy, or undefined when the default applies. */
export async function findPolicy(db: Database): Promise<PolicyRow | undefined> {
  const rows = await db.select().from(passwordPolicies).limit(1);
  return rows[0];
}

export async function savePolicy(db: Database, values: PolicyValues, now: number): Promise<void> {
  await db
    .insert(passwordPolicies)
    .values({ singleton: true, ...values, created: now, modified: now })
    .onConflictDoUpdate({ target: passwordPolicies.singleton, set: { ...values, modified: now } });
}

export async function deletePolicy(db: Database): Promise<void> {
  await db.delete(passwordPolicies);
}

/** The most recent earlier password hashes of a user, newest first. */
export async function recentPasswordHashes(db: Database, username: string, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const rows = await db
    .select({ hash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.username, username))
    .orderBy(desc(passwordHistory.id))
    .limit(limit);
  return rows.map((r) => r.hash);
}

/** Remembers a replaced password, keeping at most `keep` per user (the policy's largest history). */
export async function rememberPassword(
  db: Database,
  username: string,
  hash: string,
  at: number,
  keep: number,
): Promise<void> {
  await db.insert(passwordHistory).values({ username, passwordHash: hash, created: at });
  await db.execute(sql`
    delete from password_history where username = ${username} and id not in (
      select id from password_history where username = ${username} order by id desc limit ${keep})`);
}
