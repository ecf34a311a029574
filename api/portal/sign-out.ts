/**
 * Signing out: `oauth2/revokeToken` (what @esri/arcgis-rest-js's `revokeToken` and
 * `ArcGISIdentityManager.destroy` call, with the token as `auth_token`) and `oauth2/signout` (revokes the
 * token the request signs in with). Revoking a token revokes the server tokens exchanged from it.
 */
import { type Context, Hono } from 'hono';
import { deleteToken } from '../../db/repositories/users.js';
import { tokenHash } from '../../infra/secrets.js';
import { badRequest } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { publicRoot } from '../urls.js';

/** Where to send the browser after signing out: only back into this portal, never an open redirect. */
function redirectTarget(c: Context<AppEnv>): string | undefined {
  const redirect = c.get('params').get('redirect_uri');
  if (!redirect) return undefined;
  const root = publicRoot(c);
  let target: URL;
  try {
    target = new URL(redirect, `${root}/`);
  } catch {
    throw badRequest('Unable to sign out.', ["'redirect_uri' is not a URL."]);
  }
  if (target.origin !== new URL(root).origin) {
    throw badRequest('Unable to sign out.', ["'redirect_uri' must be a page of this portal."]);
  }
  return target.href;
}

export function createSignOutRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  // Holding a token is what entitles revoking it; the answer is the same whether it existed (RFC 7009),
  // so the route cannot be used to test tokens. Tokens here are not issued to apps, so client_id names none.
  router.post('/oauth2/revokeToken', async (c) => {
    const token = c.get('params').get('auth_token');
    if (!token) throw badRequest('Unable to revoke token.', ["'auth_token' must be specified."]);
    await deleteToken(c.get('deps').database.db, tokenHash(token));
    return sendJson(c, { success: true });
  });

  router.on(['GET', 'POST'], '/oauth2/signout', async (c) => {
    requireUser(c);
    const target = redirectTarget(c);
    const token = c.get('token');
    if (token) await deleteToken(c.get('deps').database.db, tokenHash(token));
    return target ? c.redirect(target, 302) : sendJson(c, { success: true });
  });

  return router;
}
