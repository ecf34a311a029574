/**
 * rest/services/Hosted/{name}/OGCFeatureServer: OGC API – Features (Part 1 core, Part 2 CRS) over a hosted
 * feature service, laid out as ArcGIS Online does (collections are the layers, by id). Items are answered
 * by the same layer query as FeatureServer/{layer}/query, under the same sharing and ownership rules.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { DatabaseHandle } from '../../db/client.js';
import { ownFeaturesWhere } from '../../db/repositories/access.js';
import {
  findServiceByName,
  type HostedLayerRow,
  type HostedServiceRow,
  listLayers,
} from '../../db/repositories/services.js';
import { narrowedWhere } from '../../lib/access/ownership.js';
import { badRequest, GeoError, notFound, toGeoError } from '../../lib/errors.js';
import type { GeoJSONGeometry } from '../../lib/geometry/geojson-types.js';
import {
  bboxInXY,
  CRS84,
  datetimeAsTime,
  type OgcCrs,
  parseBbox,
  parseCount,
  parseCrs,
  propertiesWhere,
  swapAxes,
} from '../../lib/ogc/features-request.js';
import { storageSpatialReference } from '../../lib/query/hosted-layer-catalog.js';
import type { AppEnv } from '../env.js';
import { servicesUrl } from '../urls.js';
import { layerOfService, serviceNotFound } from './hosted-layer.js';
import { queryFeatureLayer } from './layer-query.js';
import {
  CONFORMANCE,
  collection,
  collections,
  GEOJSON_TYPE,
  JSON_TYPE,
  landingPage,
  OPENAPI_TYPE,
  openApi,
} from './ogc-documents.js';
import { requestService } from './request-layer.js';
import { authorizeService } from './service-access.js';

const DEFAULT_LIMIT = 10;
/** Web Mercator stops short of the poles; lon/lat boxes reaching them are cut there before projecting. */
const MAX_MERCATOR_LATITUDE = 85.0511287798;

/** OGC API errors: an HTTP status and `{code, description}`, as OGC API clients (GDAL, QGIS) expect. */
export function sendOgcError(c: Context<AppEnv>, err: unknown) {
  const e = toGeoError(err);
  const status = e.code === 499 || e.code === 498 ? 401 : [400, 403, 404].includes(e.code) ? e.code : 500;
  const description = [e.message, ...e.details].filter(Boolean).join(' ');
  const code = status === 400 ? 'InvalidParameterValue' : status === 404 ? 'NotFound' : e.message;
  return c.json({ code, description }, status as 400 | 401 | 403 | 404 | 500);
}

/** Whether a request path is one of this surface's, so the app renders its errors in OGC's format. */
export const isOgcPath = (path: string) => /\/OGCFeatureServer(\/|$)/.test(path);

/** `f`: json (or geojson for features) only; `html` pages are not served here. */
function checkFormat(c: Context<AppEnv>, features: boolean) {
  const f = (c.get('params').get('f') ?? '').toLowerCase();
  if (f === '' || f === 'json' || (features && f === 'geojson')) return;
  throw badRequest('Invalid f.', [`'${f}' is not served; use f=json${features ? ' or f=geojson' : ''}.`]);
}

function send(c: Context<AppEnv>, body: unknown, type: string, crs?: OgcCrs) {
  const headers: Record<string, string> = { 'Content-Type': `${type}; charset=utf-8` };
  if (crs) headers['Content-Crs'] = `<${crs.uri}>`;
  return c.body(JSON.stringify(body), 200, headers);
}

/** The token travels in every link, so a client that signed in with `token=` can follow them. */
function linkQuery(c: Context<AppEnv>, extra: Record<string, string> = {}): string {
  const token = c.get('params').get('token');
  const q = new URLSearchParams({ ...extra, ...(token ? { token } : {}) }).toString();
  return q ? `?${q}` : '';
}

interface Feature {
  type: 'Feature';
  id: number;
  geometry: GeoJSONGeometry | null;
  properties: Record<string, unknown>;
}

/** The layer query reads its parameters by lower-cased name, as the request parser hands them over. */
const lowerKeys = (params: Record<string, string>) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k.toLowerCase(), v]));

async function featureQuery(
  database: DatabaseHandle,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  params: Record<string, string>,
): Promise<Feature[]> {
  const out = await queryFeatureLayer(database, service, layer, lowerKeys({ ...params, f: 'geojson' }));
  return (out.body as { features: Feature[] }).features;
}

export function createOgcFeatureServerRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const base = '/services/Hosted/:name/OGCFeatureServer';
  const db = (c: Context<AppEnv>) => c.get('deps').database;
  const baseUrl = (c: Context<AppEnv>) => `${servicesUrl(c)}/Hosted/${c.req.param('name')}/OGCFeatureServer`;

  // The same audience as the FeatureServer: whoever may read the service's item.
  const readable: MiddlewareHandler<AppEnv> = async (c, next) => {
    const service = await findServiceByName(db(c).db, c.req.param('name') ?? '');
    if (service?.status !== 'ready') throw notFound('Service not found.', [serviceNotFound().details[0]!]);
    await authorizeService(db(c).db, service.serviceItemId, c.get('user'));
    c.set('hostedService', service);
    await next();
  };
  // The service the access check found, and its layers: looked up once per request.
  const readyService = async (c: Context<AppEnv>) => {
    const service = requestService(c);
    return { service, layers: await listLayers(db(c).db, service.serviceItemId) };
  };
  router.use(base, readable);
  router.use(`${base}/*`, readable);
  router.onError((err, c) => sendOgcError(c, err));

  router.get(base, async (c) => {
    checkFormat(c, false);
    const { service } = await readyService(c);
    return send(c, landingPage(baseUrl(c), service, c.req.param('name'), linkQuery(c)), JSON_TYPE);
  });

  router.get(`${base}/conformance`, (c) => {
    checkFormat(c, false);
    return send(c, { conformsTo: CONFORMANCE }, JSON_TYPE);
  });

  router.get(`${base}/api`, async (c) => {
    checkFormat(c, false);
    const { layers } = await readyService(c);
    const max = Math.max(...layers.map((l) => Number(l.definition.maxRecordCount) || 2000), 1);
    return send(c, openApi(baseUrl(c), c.req.param('name'), layers, max), OPENAPI_TYPE);
  });

  router.get(`${base}/collections`, async (c) => {
    checkFormat(c, false);
    const { service, layers } = await readyService(c);
    return send(
      c,
      collections(baseUrl(c), layers, storageSpatialReference(service), linkQuery(c)),
      JSON_TYPE,
    );
  });

  const layerOf = async (c: Context<AppEnv>) => {
    const id = c.req.param('collectionId') ?? '';
    try {
      const service = requestService(c);
      return { service, layer: await layerOfService(db(c).db, service, id) };
    } catch {
      throw notFound(`Collection '${id}' does not exist.`);
    }
  };

  router.get(`${base}/collections/:collectionId`, async (c) => {
    checkFormat(c, false);
    const { service, layer } = await layerOf(c);
    return send(c, collection(baseUrl(c), layer, storageSpatialReference(service), linkQuery(c)), JSON_TYPE);
  });

  router.get(`${base}/collections/:collectionId/items`, async (c) => {
    checkFormat(c, true);
    const { service, layer } = await layerOf(c);
    const params = c.get('params').all();
    const max = Number(layer.definition.maxRecordCount) || 2000;
    // Part 1: a limit above the server's maximum is answered with the maximum, not refused.
    const limit = parseCount('limit', params.limit, Math.min(DEFAULT_LIMIT, max), 1, max, true);
    const offset = parseCount('offset', params.offset, 0, 0, Number.MAX_SAFE_INTEGER);
    const crs = parseCrs('crs', params.crs) ?? parseCrs('crs', CRS84)!;
    const bboxCrs = parseCrs('bbox-crs', params['bbox-crs']) ?? parseCrs('bbox-crs', CRS84)!;
    const bbox = parseBbox(params.bbox);
    if (params['bbox-crs'] && !bbox)
      throw badRequest('Invalid bbox-crs.', ['bbox-crs is given without bbox.']);
    const time = datetimeAsTime(params.datetime, Boolean(layer.definition.timeInfo));
    const fields = (layer.definition.fields ?? []) as { name: string; type: string }[];
    let where = propertiesWhere(params, fields);
    const own = await ownFeaturesWhere(db(c).db, service, layer, c.get('user'));
    if (own) where = narrowedWhere(where, own);

    const filter: Record<string, string> = { where, ...(time ? { time } : {}) };
    if (bbox) {
      let b = bboxInXY(bbox, bboxCrs);
      const storageWkid =
        storageSpatialReference(service).latestWkid ?? storageSpatialReference(service).wkid;
      if (bboxCrs.wkid === 4326 && storageWkid === 3857)
        b = [b[0], Math.max(b[1], -MAX_MERCATOR_LATITUDE), b[2], Math.min(b[3], MAX_MERCATOR_LATITUDE)];
      if (b[1] > b[3]) b = [b[0], b[1], b[2], b[1]];
      Object.assign(filter, {
        geometry: b.join(','),
        geometryType: 'esriGeometryEnvelope',
        inSR: String(bboxCrs.wkid),
        spatialRel: 'esriSpatialRelIntersects',
      });
    }
    const counted = await queryFeatureLayer(
      db(c),
      service,
      layer,
      lowerKeys({ ...filter, returnCountOnly: 'true' }),
    );
    const numberMatched = (counted.body as { count: number }).count;
    const features = await featureQuery(db(c), service, layer, {
      ...filter,
      outFields: '*',
      outSR: String(crs.wkid),
      orderByFields: 'OBJECTID',
      resultOffset: String(offset),
      resultRecordCount: String(limit),
    });

    const href = `${baseUrl(c)}/collections/${layer.layerId}/items`;
    const kept = Object.fromEntries(
      Object.entries(params).filter(([k, v]) => v !== '' && !['offset', 'token', 'f'].includes(k)),
    );
    const page = (o: number) => `${href}${linkQuery(c, { ...kept, offset: String(o) })}`;
    const links = [
      { href: page(offset), rel: 'self', type: GEOJSON_TYPE, title: 'This page' },
      {
        href: `${baseUrl(c)}/collections/${layer.layerId}${linkQuery(c)}`,
        rel: 'collection',
        type: JSON_TYPE,
      },
    ];
    if (offset + features.length < numberMatched)
      links.push({
        href: page(offset + features.length),
        rel: 'next',
        type: GEOJSON_TYPE,
        title: 'Next page',
      });
    if (offset > 0)
      links.push({
        href: page(Math.max(0, offset - limit)),
        rel: 'prev',
        type: GEOJSON_TYPE,
        title: 'Previous page',
      });
    return send(
      c,
      {
        type: 'FeatureCollection',
        features: crs.latLon ? features.map(swapFeature) : features,
        numberMatched,
        numberReturned: features.length,
        timeStamp: new Date(c.get('deps').now()).toISOString(),
        links,
      },
      GEOJSON_TYPE,
      crs,
    );
  });

  router.get(`${base}/collections/:collectionId/items/:featureId`, async (c) => {
    checkFormat(c, true);
    const { service, layer } = await layerOf(c);
    const fid = c.req.param('featureId');
    const unknown = Object.keys(c.get('params').all()).filter((k) => !['f', 'token', 'crs'].includes(k));
    if (unknown.length)
      throw badRequest(`Unknown parameter '${unknown[0]}'.`, ['A feature accepts f and crs.']);
    const crs = parseCrs('crs', c.get('params').get('crs')) ?? parseCrs('crs', CRS84)!;
    if (!/^\d{1,15}$/.test(fid)) throw notFound(`Feature '${fid}' does not exist.`);
    let where = `OBJECTID = ${Number(fid)}`;
    const own = await ownFeaturesWhere(db(c).db, service, layer, c.get('user'));
    if (own) where = narrowedWhere(where, own);
    const [feature] = await featureQuery(db(c), service, layer, {
      where,
      outFields: '*',
      outSR: String(crs.wkid),
    });
    if (!feature) throw notFound(`Feature '${fid}' does not exist.`);
    const collectionHref = `${baseUrl(c)}/collections/${layer.layerId}`;
    return send(
      c,
      {
        ...(crs.latLon ? swapFeature(feature) : feature),
        links: [
          { href: `${collectionHref}/items/${fid}${linkQuery(c)}`, rel: 'self', type: GEOJSON_TYPE },
          { href: `${collectionHref}${linkQuery(c)}`, rel: 'collection', type: JSON_TYPE },
        ],
      },
      GEOJSON_TYPE,
      crs,
    );
  });

  router.all(`${base}/*`, (c) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return c.json(
        { code: 'MethodNotAllowed', description: `${c.req.method} is not supported; use GET.` },
        405,
      );
    }
    const e = new GeoError({ code: 404, message: 'NotFound', details: [`No resource at ${c.req.path}.`] });
    return sendOgcError(c, e);
  });

  return router;
}

const swapFeature = (f: Feature): Feature => ({ ...f, geometry: f.geometry ? swapAxes(f.geometry) : null });
