/**
 * Authentication: a token from the `token` parameter, `X-Esri-Authorization: Bearer` or
 * `Authorization: Bearer`. A token that is present but unknown, expired or used from another referer is
 * rejected with 498 everywhere, as the portal does; a missing token is 499 only where one is required.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { findTokenUser, type UserRow } from '../db/repositories/users.js';
import { tokenHash } from '../infra/secrets.js';
import { invalidToken, tokenRequired } from '../lib/errors.js';
import type { AppEnv } from './env.js';

const BEARER = /^Bearer\s+(\S+)$/i;

export function requestToken(c: Context<AppEnv>): string | undefined {
  const fromParam = c.get('params').get('token');
  if (fromParam) return fromParam;
  for (const header of ['x-esri-authorization', 'authorization']) {
    const match = BEARER.exec(c.req.header(header) ?? '');
    if (match) return match[1];
  }
  return undefined;
}

export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = requestToken(c);
    c.set('token', token);
    c.set('user', undefined);
    if (token) {
      const { database, now } = c.get('deps');
      const found = await findTokenUser(database.db, tokenHash(token), now());
      if (!found || found.user.disabled) throw invalidToken();
      if (found.referer && !refererMatches(c.req.header('referer'), found.referer)) throw invalidToken();
      c.set('user', found.user);
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
