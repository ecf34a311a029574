/**
 * FeatureServer/{layer}/query: prepare (lib/query: normalize, project the filter, plan) → run (db)
 * → render. Geometries are stored in the service's spatial reference; results leave it when outSR
 * (or GeoJSON's WGS84) asks.
 */

import type { DatabaseHandle } from '../../db/client.js';
import { runPreparedQuery } from '../../db/repositories/feature-query.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import { GeoError } from '../../lib/errors.js';
import { simplifyGeometry } from '../../lib/geometry/simplify.js';
import { WGS84 } from '../../lib/geometry/types.js';
import { spatialReferenceForWkid, wkidOf } from '../../lib/projection/index.js';
import {
  boundsOfRow,
  featureSetJsonChunks,
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
import { outputProjection, prepareFeatureQuery } from '../../lib/query/prepare-feature-query.js';
import { attributesOf, featureRowOf, takePage } from '../../lib/query/row-mapping.js';

export interface QueryOutput {
  body: unknown;
  format: NormalizedQuery['format'];
}

/**
 * An f=json feature set to be written as it is rendered (`streamJson`): its pieces concatenate to the
 * JSON text of the body the query would otherwise answer.
 */
export class JsonPieces {
  constructor(readonly pieces: Iterable<string>) {}
}

export interface QueryOptions {
  /** Answer an Esri JSON feature set as JsonPieces rather than an object (other answers are unchanged). */
  streamJson?: boolean;
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
      const featureOf = (r: (typeof rows)[number]) => {
        const row = featureRowOf(plan, r);
        if (row.shape) {
          const shape = toOut.shape(row.shape);
          row.shape = q.maxAllowableOffset ? simplifyGeometry(shape, q.maxAllowableOffset) : shape;
        }
        return row;
      };
      const layerOut = {
        objectIdField: catalog.objectIdField,
        globalIdField: '',
        geometryType: catalog.geometryType ?? null,
        spatialReference: outRef,
      };
      if (options.streamJson && q.format !== 'geojson') {
        // Rows become features as the response is written, a few hundred at a time.
        const pieces = featureSetJsonChunks({
          layer: layerOut,
          fields: plan.columns,
          rows: (function* () {
            for (const r of page.rows) yield featureOf(r);
          })(),
          exceededTransferLimit: page.exceededTransferLimit,
          returnGeometry: plan.selectShape,
          geometryPrecision: q.geometryPrecision,
        });
        return { body: new JsonPieces(pieces), format: q.format };
      }
      const features = page.rows.map(featureOf);
      if (q.format === 'geojson') {
        return {
          format: 'geojson',
          body: renderGeoJson(plan.columns, features, page.exceededTransferLimit, catalog.objectIdField),
        };
      }
      const body = renderFeatureSet({
        layer: layerOut,
        fields: plan.columns,
        rows: features,
        exceededTransferLimit: page.exceededTransferLimit,
        returnGeometry: plan.selectShape,
        geometryPrecision: q.geometryPrecision,
      });
      return { body, format: q.format };
    }
  }
}
