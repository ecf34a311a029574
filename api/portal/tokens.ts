import { isIP } from 'node:net';
import type { Context } from 'hono';
import { findUser, insertToken, recordLogin, type UserRow } from '../../db/repositories/users.js';
import { currentPolicy } from '../../infra/passwords.js';
import { newToken, tokenHash } from '../../infra/secrets.js';
import { badRequest, GeoError } from '../../lib/errors.js';
import { passwordExpired } from '../../lib/portal/password-policy.js';
import { clientAddress, requestScheme } from '../client-address.js';
import type { AppEnv } from '../env.js';
import { checkPassword } from './password-check.js';

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

interface Binding {
  client: string;
  referer: string | null;
  ip: string | null;
}

/**
 * How the token is bound: to a referer (browsers, rest-js), to the address given as `ip`, or to the
 * address the request comes from; a token used from another referer or address is refused with 498.
 */
function binding(c: Context<AppEnv>): Binding {
  const params = c.get('params');
  const client = (params.get('client') ?? 'requestip').toLowerCase();
  if (client === 'referer') {
    const referer = params.get('referer');
    if (!referer) throw unableToGenerate("'referer' is required when client is referer.");
    return { client, referer, ip: null };
  }
  if (client === 'ip') {
    const ip = params
      .get('ip')
      ?.trim()
      .replace(/^\[(.*)\]$/, '$1');
    if (!ip) throw unableToGenerate("'ip' is required when client is ip.");
    if (!isIP(ip)) throw unableToGenerate(`'ip' must be an IPv4 or IPv6 address, not '${ip}'.`);
    return { client, referer: null, ip: ip.toLowerCase() };
  }
  if (client === 'requestip') {
    const ip = clientAddress(c);
    if (!ip)
      throw unableToGenerate('The address of this request is not known, so client=requestip cannot be used.');
    return { client, referer: null, ip };
  }
  throw unableToGenerate("'client' must be referer, ip or requestip.");
}

/** Issues a token for `user`; one exchanged from `parent` expires no later than it and is revoked with it. */
export async function issueToken(
  c: Context<AppEnv>,
  user: UserRow,
  parent?: { hash: string; expires: number },
): Promise<IssuedToken> {
  const { database, now } = c.get('deps');
  const bound = binding(c);
  const token = newToken();
  const created = now();
  const asked = created + lifetimeMinutes(c) * 60_000;
  const expires = parent ? Math.min(asked, parent.expires) : asked;
  await insertToken(database.db, {
    hash: tokenHash(token),
    username: user.username,
    expires,
    created,
    parent: parent?.hash ?? null,
    ...bound,
  });
  return { token, expires, ssl: requestScheme(c) === 'https' };
}

/** generateToken with username and password, or the exchange of a portal token for a server token. */
export async function generateToken(c: Context<AppEnv>): Promise<IssuedToken> {
  if (c.req.method !== 'POST') {
    throw badRequest('Unable to generate token.', ['generateToken accepts POST requests only.']);
  }
  const params = c.get('params');
  const exchanged = c.get('user');
  const grant = c.get('grant');
  const presented = c.get('token');
  if (exchanged && grant && presented && params.get('serverurl')) {
    return issueToken(c, exchanged, { hash: tokenHash(presented), expires: grant.expires });
  }
  const username = params.get('username');
  const password = params.get('password');
  if (!username || !password) throw unableToGenerate("'username' and 'password' must be specified.");
  const { database, now } = c.get('deps');
  const user = await findUser(database.db, username);
  const ok = await checkPassword(c, username, user, password, 'Unable to generate token.');
  if (!user || !ok) throw unableToGenerate('Invalid username or password.');
  if (passwordExpired(user.passwordChangedAt, await currentPolicy(database.db), now())) {
    throw passwordExpiredError(user.username);
  }
  await recordLogin(database.db, user.username, now());
  return issueToken(c, user);
}
