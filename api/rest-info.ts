/** `rest/info`: the federated server's description, pointing clients to the portal for tokens. */
import { Hono } from 'hono';
import type { AppEnv } from './env.js';
import { sendJson } from './render.js';
import { portalUrl, publicRoot } from './urls.js';

export const SERVER_VERSION = 11.3;

export function createRestInfoRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.on(['GET', 'POST'], '/info', (c) =>
    sendJson(c, {
      currentVersion: SERVER_VERSION,
      fullVersion: `${SERVER_VERSION}.0`,
      owningSystemUrl: publicRoot(c),
      authInfo: {
        isTokenBasedSecurity: true,
        tokenServicesUrl: `${portalUrl(c)}/generateToken`,
        shortLivedTokenValidity: c.get('deps').config.tokens.defaultMinutes,
      },
    }),
  );
  return router;
}
