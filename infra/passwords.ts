/**
 * Setting a password anywhere (createUser, user update, the first administrator) goes through here, so
 * the organization's policy and password history are enforced in one place.
 */
import type { Database } from '../db/client.js';
import { findPolicy, recentPasswordHashes, rememberPassword } from '../db/repositories/security-policy.js';
import { badRequest } from '../lib/errors.js';
import { assertPasswordAllowed, DEFAULT_POLICY, type PasswordPolicy } from '../lib/portal/password-policy.js';
import type { PasswordHasher } from './password-hasher.js';
import { hashPassword, verifyPassword } from './secrets.js';

/** Hashing outside the API's bounded pool: the first administrator at start, before any request. */
const UNBOUNDED: Pick<PasswordHasher, 'hash' | 'verify'> = {
  hash: hashPassword,
  verify: async (password, stored) => stored !== undefined && (await verifyPassword(password, stored)),
};

/** History kept per user: the largest historySize the policy allows, so raising it later still works. */
const HISTORY_KEPT = 24;

export async function currentPolicy(db: Database): Promise<PasswordPolicy> {
  const row = await findPolicy(db);
  if (!row) return { ...DEFAULT_POLICY };
  const { singleton: _s, created: _c, modified: _m, ...policy } = row;
  return policy;
}

/**
 * The hash to store for a new password of an existing user, after checking the policy and that it is not
 * one of the user's last `historySize` passwords (the current one counts as the most recent).
 */
export async function newPasswordHash(
  db: Database,
  password: string,
  user?: { username: string; passwordHash: string },
  hasher: Pick<PasswordHasher, 'hash' | 'verify'> = UNBOUNDED,
): Promise<string> {
  const policy = await currentPolicy(db);
  assertPasswordAllowed(password, policy);
  if (user && policy.historySize) {
    const earlier = await recentPasswordHashes(db, user.username, policy.historySize - 1);
    for (const hash of [user.passwordHash, ...earlier]) {
      if (await hasher.verify(password, hash)) {
        throw badRequest('The password does not meet the password policy of the organization.', [
          `Do not reuse any of your last ${policy.historySize} passwords.`,
        ]);
      }
    }
  }
  return hasher.hash(password);
}

/** Records the replaced hash so the history rule can see it. */
export async function rememberReplacedPassword(db: Database, username: string, oldHash: string, at: number) {
  await rememberPassword(db, username, oldHash, at, HISTORY_KEPT);
}
