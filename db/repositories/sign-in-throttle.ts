/**
 * Counts of password attempts per key (a user name or a client address), kept in the database so every
 * API process and every API container counts together. An attempt is counted before its password is
 * checked, under the row's lock: a burst of parallel guesses cannot all pass before the first failure is
 * recorded. A success takes its own count back.
 */
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Database } from '../client.js';
import { signInThrottle } from '../schema/users.js';

export interface ThrottleRule {
  /** Attempts counted before the key is locked; the attempt that reaches it locks it for `delayMs`. */
  limit: number;
  delayMs: number;
  /** Each further failure doubles the lock, up to this. */
  maxDelayMs: number;
  /** A count is forgotten after this long without an attempt. */
  resetMs: number;
}

/** An admitted attempt says which lock it set (0: none), so a success can lift exactly that lock. */
export type Admission = { admitted: true; lockSet: number } | { admitted: false; lockedUntil: number };

/** How long the key is locked after its `failures`-th counted attempt (0: not locked). */
export function lockAfter(failures: number, rule: ThrottleRule): number {
  if (failures < rule.limit) return 0;
  return Math.min(rule.delayMs * 2 ** Math.min(failures - rule.limit, 40), rule.maxDelayMs);
}

/** Counts one attempt on `key`, or refuses it while the key is locked. */
export async function countAttempt(
  db: Database,
  key: string,
  now: number,
  rule: ThrottleRule,
): Promise<Admission> {
  return db.transaction(async (tx) => {
    // A concurrent successful sign-in may clear the key (clearAttempts) between our insert finding it
    // there and our select: insert it again then. Each try either inserts or finds a committed row.
    let row: typeof signInThrottle.$inferSelect | undefined;
    for (let attempt = 0; !row && attempt < 5; attempt++) {
      const created = await tx
        .insert(signInThrottle)
        .values({ key, failures: 0, lastFailure: now, lockedUntil: 0 })
        .onConflictDoNothing()
        .returning({ key: signInThrottle.key });
      // Each new key clears away a few forgotten ones, so guesses at endless names cannot grow the table.
      if (created.length > 0) await forgetQuietKeys(tx, now, rule.resetMs);
      [row] = await tx.select().from(signInThrottle).where(eq(signInThrottle.key, key)).for('update');
    }
    if (!row) throw new Error(`sign-in throttle row ${key} kept vanishing`);
    if (row.lockedUntil > now) return { admitted: false, lockedUntil: row.lockedUntil };
    const failures = now - row.lastFailure > rule.resetMs ? 1 : row.failures + 1;
    const lock = lockAfter(failures, rule);
    const lockedUntil = lock ? now + lock : 0;
    await tx
      .update(signInThrottle)
      .set({ failures, lastFailure: now, lockedUntil })
      .where(eq(signInThrottle.key, key));
    return { admitted: true, lockSet: lockedUntil };
  });
}

/**
 * Takes back the attempt a success counted, and the lock it set if any: no attempt was counted while that
 * lock held, so lifting it restores the key as the success found it.
 */
export async function uncountAttempt(
  db: Database,
  key: string,
  admitted: { lockSet: number },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(signInThrottle).where(eq(signInThrottle.key, key)).for('update');
    if (!row) return;
    const lifted = admitted.lockSet !== 0 && row.lockedUntil === admitted.lockSet;
    await tx
      .update(signInThrottle)
      .set({ failures: Math.max(row.failures - 1, 0), lockedUntil: lifted ? 0 : row.lockedUntil })
      .where(eq(signInThrottle.key, key));
  });
}

const SWEEP = 100;

async function forgetQuietKeys(db: Pick<Database, 'select' | 'delete'>, now: number, resetMs: number) {
  const quiet = db
    .select({ key: signInThrottle.key })
    .from(signInThrottle)
    .where(and(lt(signInThrottle.lastFailure, now - resetMs), lt(signInThrottle.lockedUntil, now)))
    .limit(SWEEP);
  await db.delete(signInThrottle).where(inArray(signInThrottle.key, quiet));
}

/** Forgets a key's count: a user who signs in starts afresh. */
export async function clearAttempts(db: Database, key: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}
