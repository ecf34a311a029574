import type { Context } from 'hono';
import { requestHost, requestScheme } from './client-address.js';
import type { AppEnv } from './env.js';

/**
 * The external root of the deployment (scheme, host and BASE_PATH), as clients must see it in links:
 * PUBLIC_URL when set, else the request's own scheme and host (a trusted proxy's, with TRUST_PROXY).
 */
export function publicRoot(c: Context<AppEnv>): string {
  const { config } = c.get('deps');
  if (config.publicUrl) return `${config.publicUrl}${config.basePath}`;
  return `${requestScheme(c)}://${requestHost(c)}${config.basePath}`;
}

export const portalUrl = (c: Context<AppEnv>) => `${publicRoot(c)}/sharing/rest`;
export const servicesUrl = (c: Context<AppEnv>) => `${publicRoot(c)}/rest/services`;
