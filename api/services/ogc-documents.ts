/**
 * The JSON documents of an OGCFeatureServer: landing page, conformance, collection descriptions and a
 * compact OpenAPI 3.0 definition of the operations served, with links as OGC API – Features lays out.
 */
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import type { Bounds, EsriEnvelope, SpatialReference } from '../../lib/geometry/types.js';
import { CRS84, EPSG3857, SUPPORTED_CRS } from '../../lib/ogc/features-request.js';
import { createTransformer, sameSpatialReference } from '../../lib/projection/index.js';

export const JSON_TYPE = 'application/json';
export const GEOJSON_TYPE = 'application/geo+json';
export const OPENAPI_TYPE = 'application/vnd.oai.openapi+json;version=3.0';

export const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs',
];

export interface Link {
  href: string;
  rel: string;
  type: string;
  title?: string;
}

export function landingPage(base: string, service: HostedServiceRow, name: string, query = '') {
  const description = String(service.definition.serviceDescription ?? service.definition.description ?? '');
  return {
    title: name,
    description,
    links: [
      { href: `${base}${query}`, rel: 'self', type: JSON_TYPE, title: 'This document' },
      { href: `${base}/api${query}`, rel: 'service-desc', type: OPENAPI_TYPE, title: 'The API definition' },
      {
        href: `${base}/conformance${query}`,
        rel: 'conformance',
        type: JSON_TYPE,
        title: 'Conformance classes',
      },
      { href: `${base}/collections${query}`, rel: 'data', type: JSON_TYPE, title: 'Collections' },
    ] satisfies Link[],
  };
}

/** The layer's extent in CRS84, projected from the storage spatial reference. */
function extentOf(layer: HostedLayerRow, storage: SpatialReference): Bounds | undefined {
  const e = layer.definition.extent as EsriEnvelope | undefined;
  if (!e || !Number.isFinite(e.xmin)) return undefined;
  const wgs84 = { wkid: 4326 };
  const out = sameSpatialReference(storage, wgs84)
    ? e
    : createTransformer(storage, wgs84).projectGeometry<EsriEnvelope>({
        xmin: e.xmin,
        ymin: e.ymin,
        xmax: e.xmax,
        ymax: e.ymax,
      });
  return [out.xmin, out.ymin, out.xmax, out.ymax];
}

export function collection(base: string, layer: HostedLayerRow, storage: SpatialReference, query = '') {
  const def = layer.definition;
  const href = `${base}/collections/${layer.layerId}`;
  const bbox = extentOf(layer, storage);
  const storageCrs = storage.wkid === 4326 ? CRS84 : EPSG3857;
  return {
    id: String(layer.layerId),
    title: String(def.name ?? layer.layerId),
    description: String(def.description ?? ''),
    itemType: 'feature',
    links: [
      { href: `${href}${query}`, rel: 'self', type: JSON_TYPE, title: 'This collection' },
      { href: `${href}/items${query}`, rel: 'items', type: GEOJSON_TYPE, title: 'Features' },
    ] satisfies Link[],
    ...(bbox ? { extent: { spatial: { bbox: [bbox], crs: CRS84 } } } : {}),
    crs: [...SUPPORTED_CRS],
    storageCrs,
  };
}

export function collections(base: string, layers: HostedLayerRow[], storage: SpatialReference, query = '') {
  return {
    links: [{ href: `${base}/collections${query}`, rel: 'self', type: JSON_TYPE, title: 'Collections' }],
    collections: layers.map((l) => collection(base, l, storage, query)),
    crs: [...SUPPORTED_CRS],
  };
}

const param = (name: string, schema: Record<string, unknown>, description: string, explode = false) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  style: 'form',
  explode,
});

/** The OpenAPI 3.0 definition of the operations this server answers, for clients that read it. */
export function openApi(base: string, title: string, layers: HostedLayerRow[], maxLimit: number) {
  const json = (description: string, type = JSON_TYPE) => ({
    200: { description, content: { [type]: { schema: { type: 'object' } } } },
  });
  const error = { description: 'Bad request', content: { [JSON_TYPE]: { schema: { type: 'object' } } } };
  const crsEnum = { type: 'string', format: 'uri', enum: [...SUPPORTED_CRS] };
  const paths: Record<string, unknown> = {
    '/': { get: { operationId: 'getLandingPage', responses: json('Landing page') } },
    '/conformance': { get: { operationId: 'getConformance', responses: json('Conformance classes') } },
    '/collections': { get: { operationId: 'getCollections', responses: json('Collections') } },
  };
  for (const layer of layers) {
    const id = layer.layerId;
    paths[`/collections/${id}`] = {
      get: { operationId: `describeCollection${id}`, responses: json('Collection') },
    };
    paths[`/collections/${id}/items`] = {
      get: {
        operationId: `getFeatures${id}`,
        parameters: [
          param(
            'limit',
            { type: 'integer', minimum: 1, maximum: maxLimit, default: 10 },
            'Features per page',
          ),
          param('offset', { type: 'integer', minimum: 0, default: 0 }, 'Features skipped'),
          param(
            'bbox',
            { type: 'array', minItems: 4, maxItems: 6, items: { type: 'number' } },
            'Bounding box',
          ),
          param('bbox-crs', crsEnum, 'CRS of bbox'),
          param('crs', crsEnum, 'CRS of the answer'),
        ],
        responses: { ...json('Features', GEOJSON_TYPE), 400: error },
      },
    };
    paths[`/collections/${id}/items/{featureId}`] = {
      get: {
        operationId: `getFeature${id}`,
        parameters: [
          { name: 'featureId', in: 'path', required: true, schema: { type: 'integer' } },
          param('crs', crsEnum, 'CRS of the answer'),
        ],
        responses: { ...json('Feature', GEOJSON_TYPE), 404: { description: 'Not found' } },
      },
    };
  }
  return { openapi: '3.0.3', info: { title, version: '1.0.0' }, servers: [{ url: base }], paths };
}
