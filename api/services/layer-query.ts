/**
 * FeatureServer/{layer}/query: prepare (lib/query: normalize, project the filter, plan) → run (db)
 * → render. Geometries are stored in the service's spatial reference; results leave it when outSR
 * (or GeoJSON's WGS84) asks.
 */

import type { DatabaseHandle } from '../../db/client.js';
import { runPreparedQuery, startPreparedIds } from '../../db/repositories/feature-query.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import { GeoError } from '../../lib/errors.js';
import { polygonCentroid } from '../../lib/geometry/centroid.js';
import { type Dimensions, fitEsri } from '../../lib/geometry/dimensions.js';
import { simplifyGeometry } from '../../lib/geometry/simplify.js';
import { type EsriGeometry, WGS84 } from '../../lib/geometry/types.js';
import { spatialReferenceForWkid, wkidOf } from '../../lib/projection/index.js';
import { renderFeatureAnswer } from '../../lib/query/feature-answer.js';
import {
  boundsOfRow,
  type EsriFeature,
  featureSetJsonBytes,
  renderCount,
  renderDistinctValues,
  renderExtent,
  renderIds,
  renderStatistics,
} from '../../lib/query/feature-response.js';
import { renderGeoJson } from '../../lib/query/geojson-response.js';
import { layerCatalog, storageSpatialReference } from '../../lib/query/hosted-layer-catalog.js';
import type { NormalizedQuery } from '../../lib/query/normalized-query.js';
import {
  type OutputProjection,
  outputProjection,
  prepareFeatureQuery,
} from '../../lib/query/prepare-feature-query.js';
import { attributesOf, featureRowOf, takePage } from '../../lib/query/row-mapping.js';
import {
  encodeCount,
  encodeExtent,
  encodeFeatureResult,
  encodeIds,
  type PbfField,
} from '../../lib/render/pbf-feature-collection.js';

/** The answer: a JSON value to serialize, or the bytes of an f=pbf FeatureCollection. */
export type QueryOutput =
  | {
      body: unknown;
      format: Exclude<NormalizedQuery['format'], 'pbf'>;
      /** returnIdsOnly, when asked to stream: the ids batch by batch, `body` left undefined. */
      ids?: { objectIdFieldName: string; batches: AsyncIterable<readonly number[]> };
    }
  | { body: Uint8Array<ArrayBuffer>; format: 'pbf' };

/**
 * An f=json feature set to be written as it is rendered (`streamJson`): its pieces concatenate to the
 * UTF-8 bytes of the JSON text of the body the query would otherwise answer.
 */
export class JsonPieces {
  constructor(readonly pieces: Iterable<Uint8Array>) {}
}

export interface QueryOptions {
  /** Answer an Esri JSON feature set as JsonPieces rather than an object (other answers are unchanged). */
  streamJson?: boolean;
  /** Answer returnIdsOnly (json, pjson) as batches of ids to write as they come. */
  streamIds?: boolean;
}

/** The answer to a FeatureServer layer query, for a service and layer the caller has looked up. */
export async function queryFeatureLayer(
  database: DatabaseHandle,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  params: Record<string, string | undefined>,
  options: QueryOptions = {},
): Promise<QueryOutput> {
  const capabilities = String(layer.definition.capabilities ?? 'Query');
  if (!capabilities.split(',').some((c) => c.trim().toLowerCase() === 'query')) {
    // A layer published without Query (capabilities in publishParameters) does not answer queries.
    throw new GeoError({
      code: 400,
      message: 'Requested operation is not supported by this service.',
      details: [`The layer's capabilities are '${capabilities}'.`],
    });
  }
  const catalog = layerCatalog(layer);
  const storage = storageSpatialReference(service);
  const prepared = prepareFeatureQuery(params, catalog, storage);
  const { query: q, plan } = prepared;
  if (plan.mode === 'ids') {
    // Every matching id, as ArcGIS answers, read in batches; streamed unless the caller needs a body.
    const batches = await startPreparedIds(database, prepared);
    const objectIdFieldName = catalog.objectIdField;
    const format = q.format === 'pbf' ? 'json' : q.format;
    if (options.streamIds && q.format !== 'pbf')
      return { body: undefined, format, ids: { objectIdFieldName, batches } };
    const all: number[] = [];
    for await (const batch of batches) for (const id of batch) all.push(id);
    if (q.format === 'pbf') return binary(encodeIds(objectIdFieldName, all));
    return { body: renderIds(objectIdFieldName, all), format };
  }
  const outSR = q.format === 'geojson' ? (q.outSR ?? WGS84) : (q.outSR ?? storage);
  const rows = await runPreparedQuery(database, prepared);
  const toOut = outputProjection(storage, outSR);
  const outRef = spatialReferenceForWkid(wkidOf(outSR) ?? 3857);
  // z and m leave only when asked for (ArcGIS: returnZ and returnM default to false); GeoJSON
  // positions have no place for an m.
  const stored: Dimensions = { hasZ: catalog.hasZ === true, hasM: catalog.hasM === true };
  const answered: Dimensions = {
    hasZ: stored.hasZ && q.returnZ && q.returnGeometry,
    hasM: stored.hasM && q.returnM && q.returnGeometry && q.format !== 'geojson',
  };

  const pbf = q.format === 'pbf';
  const json = (body: unknown): QueryOutput => ({ body, format: q.format === 'pbf' ? 'json' : q.format });
  switch (plan.mode) {
    case 'count':
    case 'countDistinct': {
      const { count } = renderCount(rows[0]?.count);
      return pbf ? binary(encodeCount(count)) : json({ count });
    }
    case 'extent':
    case 'countAndExtent': {
      const bounds = toOut.bounds(boundsOfRow(rows[0]));
      const count = plan.mode === 'countAndExtent' ? renderCount(rows[0]?.count).count : undefined;
      if (pbf) return binary(encodeExtent(bounds, outRef, count));
      return json(renderExtent(bounds, outRef, count));
    }
    case 'distinct': {
      const page = takePage(rows, plan.pageSize);
      const attrs = page.rows.map((r) => attributesOf(plan.columns, r));
      const body = renderDistinctValues(plan.columns, attrs, page.exceededTransferLimit);
      return pbf ? binary(attributesOnly(catalog.objectIdField, body)) : json(body);
    }
    case 'statistics': {
      const page = takePage(rows, plan.pageSize);
      const body = renderStatistics(plan.groupBy, plan.statistics, page.rows, page.exceededTransferLimit);
      return pbf ? binary(attributesOnly(catalog.objectIdField, body)) : json(body);
    }
    case 'features': {
      const page = takePage(rows, plan.pageSize);
      // The records are let go of as soon as they are read, here and once written below: an array of them
      // that something still holds keeps them through the young generation's collections, each copying
      // them again (db/client.ts detachedRows).
      rows.length = 0;
      // returnExceededLimitFeatures=false: a page past the limit answers no features, only the flag.
      if (page.exceededTransferLimit && !q.returnExceededLimitFeatures) page.rows = [];
      const featureOf = (r: (typeof rows)[number]) => {
        const row = featureRowOf(plan, r);
        if (q.returnCentroid) row.centroid = centroidOf(row.shape, toOut);
        if (!q.returnGeometry) delete row.shape;
        if (row.shape) {
          const shape = toOut.shape(fitEsri(row.shape, stored, answered));
          row.shape = q.maxAllowableOffset ? simplifyGeometry(shape, q.maxAllowableOffset) : shape;
        }
        return row;
      };
      const layerOut = {
        objectIdField: catalog.objectIdField,
        globalIdField: '',
        geometryType: catalog.geometryType ?? null,
        spatialReference: outRef,
        ...answered,
      };
      if (options.streamJson && q.format === 'json' && !q.quantization) {
        // Rows become features as the response is written, a few hundred at a time. (A quantized
        // answer needs every shape first for its grid, and f=pbf is one message: both are made whole.)
        const pieces = featureSetJsonBytes({
          layer: layerOut,
          fields: plan.columns,
          rows: (function* () {
            try {
              for (const r of page.rows) yield featureOf(r);
            } finally {
              page.rows.length = 0;
            }
          })(),
          exceededTransferLimit: page.exceededTransferLimit,
          returnGeometry: q.returnGeometry,
          geometryPrecision: q.geometryPrecision,
        });
        return { body: new JsonPieces(pieces), format: 'json' };
      }
      const features = page.rows.map(featureOf);
      page.rows.length = 0;
      if (q.format === 'geojson') {
        return {
          format: 'geojson',
          body: renderGeoJson(plan.columns, features, page.exceededTransferLimit, catalog.objectIdField),
        };
      }
      const answer = renderFeatureAnswer({
        query: q,
        layer: layerOut,
        storage,
        outSR,
        fields: plan.columns,
        rows: features,
        exceededTransferLimit: page.exceededTransferLimit,
        returnGeometry: q.returnGeometry,
        layout: answered,
      });
      return answer instanceof Uint8Array ? binary(answer) : json(answer);
    }
  }
}

const binary = (body: Uint8Array<ArrayBuffer>): QueryOutput => ({ body, format: 'pbf' });

/** Statistics and distinct values in PBF: a feature result of attributes only. */
function attributesOnly(objectIdFieldName: string, body: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  const features = body.features as EsriFeature[];
  return encodeFeatureResult({
    objectIdFieldName,
    globalIdFieldName: '',
    exceededTransferLimit: body.exceededTransferLimit === true,
    fields: body.fields as PbfField[],
    featureCount: features.length,
    attribute: (i, f) => features[i].attributes[f.name],
  });
}

/** The polygon's centroid in the storage reference, then projected as the shapes are. */
function centroidOf(
  shape: EsriGeometry | null | undefined,
  toOut: OutputProjection,
): { x: number; y: number } | null {
  const c = shape && 'rings' in shape ? polygonCentroid(shape) : null;
  if (!c) return null;
  const p = toOut.shape({ x: c.x, y: c.y }) as { x: number; y: number };
  return { x: p.x, y: p.y };
}
