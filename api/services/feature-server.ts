/** rest/services/Hosted/{name}/FeatureServer: the service, its layers, and each layer's query. */
import { createHash } from 'node:crypto';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { ownFeaturesWhere } from '../../db/repositories/access.js';
import { type HostedLayerRow, type HostedServiceRow, listLayers } from '../../db/repositories/services.js';
import { narrowedWhere } from '../../lib/access/ownership.js';
import { allowsEditing, parseCapabilities } from '../../lib/edit/capabilities.js';
import { toGeoError } from '../../lib/errors.js';
import { servedLayer, servedService } from '../../lib/service/engine-capabilities.js';
import type { AppEnv } from '../env.js';
import { sendQueryPage, submittedQuery } from '../html/query-page.js';
import { errorEnvelope, sendJson } from '../render.js';
import { sendIdsStream } from '../render-stream.js';
import { mountAttachmentRoutes } from './attachments-routes.js';
import { mountFeatureEditRoutes } from './feature-edit-routes.js';
import { serviceNotFound } from './hosted-layer.js';
import { JsonPieces, queryFeatureLayer } from './layer-query.js';
import { sendRelatedRecords } from './related-records.js';
import { requestLayer, requestService } from './request-layer.js';
import { sendServiceQuery } from './service-query.js';

const methods = ['GET', 'POST'];

/** Query answers of static layers: kept by the client for an hour, never by a shared cache. */
const STATIC_CACHE_CONTROL = 'private, max-age=3600';

/**
 * The ETag of a query on a layer with static data, or undefined when the layer's data may change
 * (hasStaticData false, or the layer can be edited). It covers the layer's resource (which changes
 * when the service is re-published), the query's parameters and, where ownership narrows what the
 * caller sees, the caller.
 */
function staticDataTag(
  service: HostedServiceRow,
  layer: HostedLayerRow,
  params: Record<string, string | undefined>,
  viewer: string | undefined,
): string | undefined {
  if (service.definition.hasStaticData !== true) return undefined;
  if (allowsEditing(parseCapabilities(String(layer.definition.capabilities ?? 'Query')))) return undefined;
  const query = Object.entries(params)
    .filter(([k, v]) => v !== undefined && k.toLowerCase() !== 'token')
    .sort(([a], [b]) => a.localeCompare(b));
  const hash = createHash('sha256')
    .update(JSON.stringify([service.serviceItemId, layer.layerId, layer.definition, query, viewer ?? null]))
    .digest('base64url')
    .slice(0, 32);
  return `"q-${hash}"`;
}

/**
 * A layer query of the named feature service, answered for its FeatureServer and for its MapServer
 * (whose layers are the feature service's); the caller's access to the service is checked already.
 */
/**
 * A layer's query (FeatureServer and the MapServer of a feature service): ownership filters, the
 * directory's HTML form, and ETags for layers of static data.
 */
export async function sendLayerQuery(c: Context<AppEnv>, service: HostedServiceRow, layer: HostedLayerRow) {
  const params: Record<string, string | undefined> = c.get('params').all();
  const html = params.f?.toLowerCase() === 'html';
  // Ownership access control: others' features stay hidden where allowOthersToQuery is false.
  const own = await ownFeaturesWhere(c.get('deps').database.db, service, layer, c.get('user'));
  if (own) params.where = narrowedWhere(params.where, own);
  if (html) {
    // The directory's query form: shown empty, or with the answer to what was submitted.
    const submitted = submittedQuery(c.get('params').all());
    if (Object.keys(submitted).length === 0)
      return sendQueryPage(c, String(layer.definition.name), submitted, undefined);
    const query = {
      ...submitted,
      f: 'json',
      ...(own ? { where: narrowedWhere(submitted.where, own) } : {}),
    };
    const answer = await queryFeatureLayer(c.get('deps').database, service, layer, query).then(
      (out) => out.body,
      (err: unknown) => errorEnvelope(toGeoError(err)),
    );
    return sendQueryPage(c, String(layer.definition.name), submitted, answer);
  }
  // hasStaticData: a layer whose data does not change (and that no one may edit) answers a query
  // with an ETag and lets the client keep the answer; a repeat with that ETag is a 304.
  const etag = staticDataTag(service, layer, params, own ? c.get('user')?.username : undefined);
  if (etag && c.req.header('if-none-match') === etag) {
    return c.body(null, 304, { ETag: etag, 'Cache-Control': STATIC_CACHE_CONTROL });
  }
  // f=json without a callback is written as it is rendered (pjson, JSONP and GeoJSON are rendered whole).
  const f = (params.f ?? 'json').toLowerCase();
  const streamJson = (f === 'json' || f === '') && params.callback === undefined;
  const out = await queryFeatureLayer(c.get('deps').database, service, layer, params, {
    streamIds: true,
    streamJson,
  });
  const res =
    out.format === 'pbf'
      ? c.body(out.body, 200, { 'Content-Type': 'application/x-protobuf' })
      : out.ids
        ? sendIdsStream(c, out.ids)
        : out.body instanceof JsonPieces
          ? c.body(streamPieces(out.body.pieces), 200, { 'Content-Type': 'application/json; charset=utf-8' })
          : sendJson(c, out.body);
  if (etag && res.status === 200) {
    res.headers.set('ETag', etag);
    res.headers.set('Cache-Control', STATIC_CACHE_CONTROL);
  }
  return res;
}

export function createFeatureServerRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const base = '/services/Hosted/:name/FeatureServer';

  // Every resource of the service answers only those who may read its item.
  // The service, its layers and the access answer come from the app's brief memory (request-lookups.ts).
  const readable: MiddlewareHandler<AppEnv> = async (c, next) => {
    const lookups = c.get('lookups');
    const found = await lookups.readyService(c.req.param('name') ?? '');
    if (!found) throw serviceNotFound();
    await lookups.authorize(c.get('deps').database.db, found.service.serviceItemId, c.get('user'));
    c.set('hostedService', found.service);
    c.set('hostedLayers', found.layers);
    await next();
  };
  router.use(base, readable);
  router.use(`${base}/*`, readable);

  router.on(methods, base, async (c) => {
    return sendJson(c, servedService(requestService(c).definition));
  });

  router.on(methods, `${base}/layers`, async (c) => {
    const layers =
      c.get('hostedLayers') ?? (await listLayers(c.get('deps').database.db, requestService(c).serviceItemId));
    const defs = layers.map((l) => servedLayer(l.definition));
    return sendJson(c, {
      layers: defs.filter((d) => d.type !== 'Table'),
      tables: defs.filter((d) => d.type === 'Table'),
    });
  });

  router.on(methods, `${base}/query`, async (c) => sendServiceQuery(c, requestService(c)));

  router.on(methods, `${base}/:layer{[0-9]+}`, async (c) => {
    const { layer } = await requestLayer(c);
    return sendJson(c, servedLayer(layer.definition));
  });

  router.on(methods, `${base}/:layer{[0-9]+}/query`, async (c) => {
    const { service, layer } = await requestLayer(c);
    return sendLayerQuery(c, service, layer);
  });

  router.on(methods, `${base}/:layer{[0-9]+}/queryRelatedRecords`, async (c) => sendRelatedRecords(c));

  mountFeatureEditRoutes(router, base);
  mountAttachmentRoutes(router, base);

  return router;
}

/** A byte stream of pieces, each made only when the response is ready for more (backpressure). */
function streamPieces(pieces: Iterable<Uint8Array>): ReadableStream<Uint8Array> {
  const it = pieces[Symbol.iterator]();
  return new ReadableStream({
    pull(controller) {
      const next = it.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    // A client that goes away ends the pieces, so what they still hold is let go of at once.
    cancel() {
      it.return?.();
    },
  });
}
