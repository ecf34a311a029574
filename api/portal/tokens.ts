import type { Context } from 'hono';
import { findUser, insertToken, recordLogin, type UserRow } from '../../db/repositories/users.js';
import { currentPolicy } from '../../infra/passwords.js';
import { newToken, tokenHash, verifyPassword } from '../../infra/secrets.js';
import { badRequest, GeoError } from '../../lib/errors.js';
import { passwordExpired } from '../../lib/portal/password-policy.js';
import type { AppEnv } from '../env.js';

export interface IssuedToken {
  token: string;
  expires: number;
  ssl: boolean;
}

/**
 * An expired password blocks sign-in with a 400 that says so; the user then changes it without a token
 * through community/users/{u}/update with `oldPassword` and `password` (see users-router.ts).
 */
export const passwordExpiredError = (username: string) =>
  new GeoError({
    code: 400,
    message: 'Unable to generate token. The password has expired and must be changed.',
    details: [`Change it with community/users/${username}/update, sending oldPassword and the new password.`],
    messageCode: 'PASSWORD_EXPIRED',
  });

const unableToGenerate = (detail: string) =>
  new GeoError({ code: 400, message: 'Unable to generate token.', details: [detail] });

/** Minutes asked for, within the configured maximum; absent or invalid values get the default. */
function lifetimeMinutes(c: Context<AppEnv>): number {
  const { tokens } = c.get('deps').config;
  const raw = c.get('params').get('expiration');
  if (raw === undefined || raw === '') return tokens.defaultMinutes;
  const minutes = Number(raw);
  if (!Number.isInteger(minutes) || minutes <= 0) {
    throw unableToGenerate("'expiration' must be a positive number of minutes.");
  }
  return Math.min(minutes, tokens.maxMinutes);
}

/** How the token is bound: to a referer (browsers, rest-js), to an IP, or to the requesting IP. */
function binding(c: Context<AppEnv>): { client: string; referer: string | null } {
  const params = c.get('params');
  const client = (params.get('client') ?? 'requestip').toLowerCase();
  if (client === 'referer') {
    const referer = params.get('referer');
    if (!referer) throw unableToGenerate("'referer' is required when client is referer.");
    return { client, referer };
  }
  if (client === 'ip' || client === 'requestip') return { client, referer: null };
  throw unableToGenerate("'client' must be referer, ip or requestip.");
}

export async function issueToken(c: Context<AppEnv>, user: UserRow): Promise<IssuedToken> {
  const { database, now } = c.get('deps');
  const bound = binding(c);
  const token = newToken();
  const created = now();
  const expires = created + lifetimeMinutes(c) * 60_000;
  await insertToken(database.db, {
    hash: tokenHash(token),
    username: user.username,
    expires,
    created,
    ...bound,
  });
  return { token, expires, ssl: new URL(c.req.url).protocol === 'https:' };
}

/** generateToken with username and password, or the exchange of a portal token for a server token. */
export async function generateToken(c: Context<AppEnv>): Promise<IssuedToken> {
  if (c.req.method !== 'POST') {
    throw badRequest('Unable to generate token.', ['generateToken accepts POST requests only.']);
  }
  const params = c.get('params');
  const exchanged = c.get('user');
  if (exchanged && params.get('serverurl')) return issueToken(c, exchanged);
  const username = params.get('username');
  const password = params.get('password');
  if (!username || !password) throw unableToGenerate("'username' and 'password' must be specified.");
  const { database, now } = c.get('deps');
  const user = await findUser(database.db, username);
  // Verify even for unknown users would leak timing less; the cost is one scrypt per failed sign-in.
  const ok = user ? await verifyPassword(password, user.passwordHash) : false;
  if (!user || !ok || user.disabled) throw unableToGenerate('Invalid username or password.');
  if (passwordExpired(user.passwordChangedAt, await currentPolicy(database.db), now())) {
    throw passwordExpiredError(user.username);
  }
  await recordLogin(database.db, user.username, now());
  return issueToken(c, user);
}
