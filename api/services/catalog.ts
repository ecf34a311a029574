/**
 * The services directory: `rest/services` lists the Hosted folder and the locator; `rest/services/Hosted`
 * lists every ready hosted service, as ArcGIS Server's directory does for clients that browse it.
 */
import { Hono } from 'hono';
import { readyHostedServices } from '../../db/repositories/service-catalog.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { SERVER_VERSION } from '../rest-info.js';

const methods = ['GET', 'POST'];

export function createServiceCatalogRouter(locatorNames: readonly string[] = ['World']): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.on(methods, '/services', (c) =>
    sendJson(c, {
      currentVersion: SERVER_VERSION,
      folders: ['Hosted'],
      services: locatorNames.map((name) => ({ name, type: 'GeocodeServer' })),
    }),
  );
  router.on(methods, '/services/Hosted', async (c) => {
    const entries = await readyHostedServices(c.get('deps').database.db);
    return sendJson(c, {
      currentVersion: SERVER_VERSION,
      folders: [],
      services: entries.map((e) => ({ name: `Hosted/${e.name}`, type: e.type })),
    });
  });
  return router;
}
