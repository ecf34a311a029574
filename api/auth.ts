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
import { clientAddress } from './client-address.js';
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

/** What a token grants: its user, until when, and the referer or address it was bound to (if any). */
export type TokenGrant = NonNullable<Awaited<ReturnType<typeof findTokenUser>>>;

/** The token's grant, or undefined when the token is unknown or expired at `now`. */
export function findTokenGrant(db: Database, token: string, now: number): Promise<TokenGrant | undefined> {
  return findTokenUser(db, tokenHash(token), now);
}

/** Where a request comes from, as far as token bindings go. */
export interface RequestOrigin {
  referer: string | undefined;
  address: string | undefined;
}

/** The user a grant signs in for a request from `origin`, or undefined when the token is refused (498). */
export function grantedUser(
  grant: TokenGrant | null | undefined,
  origin: RequestOrigin,
): UserRow | undefined {
  if (!grant || grant.user.disabled) return undefined;
  if (grant.referer && !refererMatches(origin.referer, grant.referer)) return undefined;
  if (grant.ip && grant.ip !== origin.address) return undefined;
  return grant.user;
}

export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = requestToken(c);
    c.set('token', token);
    c.set('user', undefined);
    c.set('grant', undefined);
    if (token) {
      const grant = await c.get('lookups').grant(token);
      const user = grantedUser(grant, { referer: c.req.header('referer'), address: clientAddress(c) });
      if (!user) throw invalidToken();
      c.set('user', user);
      c.set('grant', grant);
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
