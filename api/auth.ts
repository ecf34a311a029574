/**
 * Authentication: a token from the `token` parameter, `X-Esri-Authorization: Bearer` or
 * `Authorization: Bearer`. A token that is present but unknown, expired or used from another referer is
 * rejected with 498 everywhere, as the portal does; a missing token is 499 only where one is required.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Database } from '../db/client.js';
import { findTokenUser, type UserRow } from '../db/repositories/users.js';
import { tokenHash } from '../infra/secrets.js';
import { invalidToken, tokenRequired } from '../lib/errors.js';
import type { AppEnv } from './env.js';

const BEARER = /^Bearer\s+(\S+)$/i;

export function requestToken(c: Context<AppEnv>): string | undefined {
  return tokenOf(c.get('params').get('token'), (name) => c.req.header(name));
}

/** The `token` parameter if given, else a Bearer header: the one rule every path reads tokens by. */
export function tokenOf(
  parameter: string | undefined,
  header: (name: string) => string | undefined,
): string | undefined {
  return parameter || headerToken(header);
}

/** A Bearer token from `X-Esri-Authorization` or else `Authorization`. */
export function headerToken(header: (name: string) => string | undefined): string | undefined {
  for (const name of ['x-esri-authorization', 'authorization']) {
    const match = BEARER.exec(header(name) ?? '');
    if (match) return match[1];
  }
  return undefined;
}

/** What a token grants: its user, until when, and the referer it was made for (if any). */
export type TokenGrant = NonNullable<Awaited<ReturnType<typeof findTokenUser>>>;

/** The token's grant, or undefined when the token is unknown or expired at `now`. */
export function findTokenGrant(db: Database, token: string, now: number): Promise<TokenGrant | undefined> {
  return findTokenUser(db, tokenHash(token), now);
}

/** The user a grant signs in for a request from `referer`, or undefined when the token is refused (498). */
export function grantedUser(grant: TokenGrant | undefined, referer: string | undefined): UserRow | undefined {
  if (!grant || grant.user.disabled) return undefined;
  if (grant.referer && !refererMatches(referer, grant.referer)) return undefined;
  return grant.user;
}

export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = requestToken(c);
    c.set('token', token);
    c.set('user', undefined);
    if (token) {
      const { database, now } = c.get('deps');
      const user = grantedUser(await findTokenGrant(database.db, token, now()), c.req.header('referer'));
      if (!user) throw invalidToken();
      c.set('user', user);
    }
    await next();
  };
}

/** Browsers send the page URL as Referer; a token made for an origin serves every page under it. */
function refererMatches(sent: string | undefined, bound: string): boolean {
  if (!sent) return false;
  return sent === bound || sent.startsWith(bound.endsWith('/') ? bound : `${bound}/`);
}

export function requireUser(c: Context<AppEnv>): UserRow {
  const user = c.get('user');
  if (!user) throw tokenRequired();
  return user;
}
