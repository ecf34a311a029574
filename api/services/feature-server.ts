/** rest/services/Hosted/{name}/FeatureServer: the service, its layers, and each layer's query. */
import { Hono } from 'hono';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { readyLayer, readyService } from './hosted-layer.js';
import { queryLayer } from './layer-query.js';

const methods = ['GET', 'POST'];

export function createFeatureServerRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const base = '/services/Hosted/:name/FeatureServer';

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
    const out = await queryLayer(
      c.get('deps').database,
      c.req.param('name'),
      c.req.param('layer'),
      c.get('params').all(),
    );
    return sendJson(c, out.body);
  });

  return router;
}
