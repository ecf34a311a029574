/**
 * Every check of a typed password (generateToken, a password change proven by the old one) goes through
 * here. Attempts are counted per user name and per client address; past a limit each key is locked for a
 * growing time and refused without checking anything. Unknown names cost the same hash as known ones and
 * are counted the same way, so neither the answer nor its timing says whether a user exists.
 */
import type { Context } from 'hono';
import {
  type Admission,
  clearAttempts,
  countAttempt,
  type ThrottleRule,
  uncountAttempt,
} from '../../db/repositories/sign-in-throttle.js';
import type { UserRow } from '../../db/repositories/users.js';
import { GeoError } from '../../lib/errors.js';
import { addressBlock, clientAddress } from '../client-address.js';
import type { AppEnv } from '../env.js';

type Admitted = Extract<Admission, { admitted: true }>;

const locked = (message: string, lockedUntil: number, now: number) =>
  new GeoError({
    code: 400,
    message,
    details: [
      `Too many failed attempts for this user or from this address. Try again in ${Math.max(
        1,
        Math.ceil((lockedUntil - now) / 1000),
      )} seconds.`,
    ],
    messageCode: 'SIGN_IN_LOCKED',
  });

/**
 * Whether `password` is the password of `user` (looked up by `username`, undefined when there is none).
 * Throws the lock error, with `message`, while the name or the address is locked.
 */
export async function checkPassword(
  c: Context<AppEnv>,
  username: string,
  user: UserRow | undefined,
  password: string,
  message: string,
): Promise<boolean> {
  const { database, now, passwords, config } = c.get('deps');
  const db = database.db;
  const base = { delayMs: config.signIn.delayMs, maxDelayMs: config.signIn.maxDelayMs };
  const addressRule: ThrottleRule = {
    ...base,
    limit: config.signIn.failuresPerAddress,
    resetMs: config.signIn.resetMs,
  };
  const userRule: ThrottleRule = {
    ...base,
    limit: config.signIn.failuresPerUser,
    resetMs: config.signIn.resetMs,
  };
  const address = clientAddress(c);
  const addressKey = `address:${address ? addressBlock(address) : 'unknown'}`;
  const userKey = `user:${username.toLowerCase()}`;

  const t = now();
  const byAddress = await countAttempt(db, addressKey, t, addressRule);
  if (!byAddress.admitted) throw locked(message, byAddress.lockedUntil, t);
  const byUser = await countAttempt(db, userKey, t, userRule);
  if (!byUser.admitted) {
    await uncountAttempt(db, addressKey, byAddress);
    throw locked(message, byUser.lockedUntil, t);
  }
  const takeBack = async (admitted: Admitted) => {
    await uncountAttempt(db, addressKey, byAddress);
    await uncountAttempt(db, userKey, admitted);
  };

  let ok: boolean;
  try {
    ok = await passwords.verify(password, user?.passwordHash);
  } catch (e) {
    // Refused for load, not a guess: it does not count.
    await takeBack(byUser);
    throw e;
  }
  if (!ok || !user || user.disabled) return false;
  await clearAttempts(db, userKey);
  await uncountAttempt(db, addressKey, byAddress);
  return true;
}
