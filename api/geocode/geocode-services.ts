/** The GeocodeServer of the process's shared locator, as the API mounts it at `{prefix}/rest/services`. */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { loadAddressPoints } from './address-points-route.js';
import { createGeocodeRouter } from './geocode-server.js';

export function createGeocodeServices(deps: Pick<AppDeps, 'locator'>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Errors go to the app's onError, which logs unexpected ones and renders the Esri envelope.
  app.post('/:name/GeocodeServer/loadAddressPoints', async (c) => sendJson(c, await loadAddressPoints(c)));
  app.route(
    '/',
    createGeocodeRouter({
      locator: async (name) => {
        const locator = await deps.locator();
        return locator.info.serviceName.toLowerCase() === name.toLowerCase() ? locator : undefined;
      },
    }),
  );
  return app;
}
