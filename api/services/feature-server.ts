/** rest/services/Hosted/{name}/FeatureServer: the service, its layers, and each layer's query. */
import { Hono, type MiddlewareHandler } from 'hono';
import { findServiceByName } from '../../db/repositories/services.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { mountAttachmentRoutes } from './attachments-routes.js';
import { narrowedWhere, ownFeaturesWhere } from './feature-edit-access.js';
import { mountFeatureEditRoutes } from './feature-edit-routes.js';
import { readyLayer, readyService, serviceNotFound } from './hosted-layer.js';
import { queryLayer } from './layer-query.js';
import { authorizeService } from './service-access.js';

const methods = ['GET', 'POST'];

export function createFeatureServerRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const base = '/services/Hosted/:name/FeatureServer';

  // Every resource of the service answers only those who may read its item.
  const readable: MiddlewareHandler<AppEnv> = async (c, next) => {
    const db = c.get('deps').database.db;
    const service = await findServiceByName(db, c.req.param('name') ?? '');
    if (service?.status !== 'ready') throw serviceNotFound();
    await authorizeService(db, service.serviceItemId, c.get('user'));
    await next();
  };
  router.use(base, readable);
  router.use(`${base}/*`, readable);

  router.on(methods, base, async (c) => {
    const { service } = await readyService(c.get('deps').database.db, c.req.param('name'));
    return sendJson(c, service.definition);
  });

  router.on(methods, `${base}/layers`, async (c) => {
    const { layers } = await readyService(c.get('deps').database.db, c.req.param('name'));
    const defs = layers.map((l) => l.definition);
    return sendJson(c, {
      layers: defs.filter((d) => d.type !== 'Table'),
      tables: defs.filter((d) => d.type === 'Table'),
    });
  });

  router.on(methods, `${base}/:layer{[0-9]+}`, async (c) => {
    const { layer } = await readyLayer(c.get('deps').database.db, c.req.param('name'), c.req.param('layer'));
    return sendJson(c, layer.definition);
  });

  router.on(methods, `${base}/:layer{[0-9]+}/query`, async (c) => {
    const params: Record<string, string | undefined> = c.get('params').all();
    const { service, layer } = await readyLayer(
      c.get('deps').database.db,
      c.req.param('name'),
      c.req.param('layer'),
    );
    // Ownership access control: others' features stay hidden where allowOthersToQuery is false.
    const own = await ownFeaturesWhere(c.get('deps').database.db, service, layer, c.get('user'));
    if (own) params.where = narrowedWhere(params.where, own);
    const out = await queryLayer(c.get('deps').database, c.req.param('name'), c.req.param('layer'), params);
    return sendJson(c, out.body);
  });

  mountFeatureEditRoutes(router, base);
  mountAttachmentRoutes(router, base);

  return router;
}
