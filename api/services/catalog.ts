/**
 * The services directory: `rest/services` lists the Hosted folder and the locator; `rest/services/Hosted`
 * lists every ready hosted service the caller may use, as ArcGIS Server's directory does for clients
 * that browse it.
 */
import { Hono } from 'hono';
import { mayReadItem as canReadShared } from '../../db/repositories/access.js';
import { findItem } from '../../db/repositories/items.js';
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
    const { db } = c.get('deps').database;
    const viewer = c.get('user');
    const entries = [];
    for (const entry of await readyHostedServices(db)) {
      const item = await findItem(db, entry.serviceItemId);
      if (item && (await canReadShared(db, item, viewer))) entries.push(entry);
    }
    return sendJson(c, {
      currentVersion: SERVER_VERSION,
      folders: [],
      services: entries.map((e) => ({ name: `Hosted/${e.name}`, type: e.type })),
    });
  });
  return router;
}
