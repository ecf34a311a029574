import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/** The external root of the deployment (scheme, host and BASE_PATH), as clients must see it in links. */
export function publicRoot(c: Context<AppEnv>): string {
  const { config } = c.get('deps');
  if (config.publicUrl) return `${config.publicUrl}${config.basePath}`;
  const url = new URL(c.req.url);
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() || url.protocol.replace(':', '');
  const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim() || c.req.header('host') || url.host;
  return `${proto}://${host}${config.basePath}`;
}

export const portalUrl = (c: Context<AppEnv>) => `${publicRoot(c)}/sharing/rest`;
export const servicesUrl = (c: Context<AppEnv>) => `${publicRoot(c)}/rest/services`;
