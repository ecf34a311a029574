/**
 * FeatureServer/{layer}/query: prepare (lib/query: normalize, project the filter, plan) → run (db)
 * → render. Geometries are stored in the service's spatial reference; results leave it when outSR
 * (or GeoJSON's WGS84) asks.
 */

import type { DatabaseHandle } from '../../db/client.js';
import { runPreparedQuery } from '../../db/repositories/feature-query.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import { GeoError } from '../../lib/errors.js';
import { polygonCentroid } from '../../lib/geometry/centroid.js';
import { simplifyGeometry } from '../../lib/geometry/simplify.js';
import { type EsriGeometry, WGS84 } from '../../lib/geometry/types.js';
import { spatialReferenceForWkid, wkidOf } from '../../lib/projection/index.js';
import {
  boundsOfRow,
  renderCount,
  renderDistinctValues,
  renderExtent,
  renderFeatureSet,
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

export interface QueryOutput {
  body: unknown;
  format: NormalizedQuery['format'];
}

/** The answer to a FeatureServer layer query, for a service and layer the caller has looked up. */
export async function queryFeatureLayer(
  database: DatabaseHandle,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  params: Record<string, string | undefined>,
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
  const outSR = q.format === 'geojson' ? (q.outSR ?? WGS84) : (q.outSR ?? storage);
  const rows = await runPreparedQuery(database, prepared);
  const toOut = outputProjection(storage, outSR);
  const outRef = spatialReferenceForWkid(wkidOf(outSR) ?? 3857);

  switch (plan.mode) {
    case 'count':
    case 'countDistinct':
      return { body: renderCount(rows[0]?.count), format: q.format };
    case 'ids':
      return {
        body: renderIds(
          catalog.objectIdField,
          rows.map((r) => r.objectid),
        ),
        format: q.format,
      };
    case 'extent':
      return { body: renderExtent(toOut.bounds(boundsOfRow(rows[0])), outRef), format: q.format };
    case 'countAndExtent':
      return {
        body: renderExtent(toOut.bounds(boundsOfRow(rows[0])), outRef, rows[0]?.count),
        format: q.format,
      };
    case 'distinct': {
      const page = takePage(rows, plan.pageSize);
      const attrs = page.rows.map((r) => attributesOf(plan.columns, r));
      return {
        body: renderDistinctValues(plan.columns, attrs, page.exceededTransferLimit),
        format: q.format,
      };
    }
    case 'statistics': {
      const page = takePage(rows, plan.pageSize);
      return {
        body: renderStatistics(plan.groupBy, plan.statistics, page.rows, page.exceededTransferLimit),
        format: q.format,
      };
    }
    case 'features': {
      const page = takePage(rows, plan.pageSize);
      // returnExceededLimitFeatures=false: a page past the limit answers no features, only the flag.
      if (page.exceededTransferLimit && !q.returnExceededLimitFeatures) page.rows = [];
      const features = page.rows.map((r) => {
        const row = featureRowOf(plan, r);
        if (q.returnCentroid) row.centroid = centroidOf(row.shape, toOut);
        if (!q.returnGeometry) delete row.shape;
        if (row.shape) {
          const shape = toOut.shape(row.shape);
          row.shape = q.maxAllowableOffset ? simplifyGeometry(shape, q.maxAllowableOffset) : shape;
        }
        return row;
      });
      if (q.format === 'geojson') {
        return {
          format: 'geojson',
          body: renderGeoJson(plan.columns, features, page.exceededTransferLimit, catalog.objectIdField),
        };
      }
      const body = renderFeatureSet({
        layer: {
          objectIdField: catalog.objectIdField,
          globalIdField: '',
          geometryType: catalog.geometryType ?? null,
          spatialReference: outRef,
        },
        fields: plan.columns,
        rows: features,
        exceededTransferLimit: page.exceededTransferLimit,
        returnGeometry: q.returnGeometry,
        geometryPrecision: q.geometryPrecision,
      });
      return { body, format: q.format };
    }
  }
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
