/**
 * FeatureServer/{layer}/query: normalize the parameters (lib/query) → plan → run (db) → render.
 * Geometries are stored in the service's spatial reference; the filter is projected into it, and
 * results out of it when outSR (or GeoJSON's WGS84) asks.
 */

import type { Database, DatabaseHandle } from '../../db/client.js';
import { runFeatureQuery } from '../../db/repositories/feature-query.js';
import { GeoError } from '../../lib/errors.js';
import {
  esriToGeoJSON,
  geometryBounds,
  simplifyGeometry,
  spatialRelationHolds,
} from '../../lib/geometry/index.js';
import type { Bounds, EsriEnvelope, EsriGeometry, SpatialReference } from '../../lib/geometry/types.js';
import {
  createTransformer,
  sameSpatialReference,
  spatialReferenceForWkid,
  wkidOf,
} from '../../lib/projection/index.js';
import {
  boundsOfRow,
  renderCount,
  renderDistinctValues,
  renderExtent,
  renderFeatureSet,
  renderIds,
  renderStatistics,
} from '../../lib/query/feature-response.js';
import { normalizeQuery } from '../../lib/query/normalize/normalize-query.js';
import type { NormalizedQuery } from '../../lib/query/normalized-query.js';
import { planFeatureQuery } from '../../lib/query/query-plan.js';
import { attributesOf, featureRowOf, takePage } from '../../lib/query/row-mapping.js';
import { toWireValue } from '../../lib/query/wire-values.js';
import { layerCatalog, readyLayer, storageSpatialReference } from './hosted-layer.js';

export interface QueryOutput {
  body: unknown;
  format: NormalizedQuery['format'];
}

const WGS84: SpatialReference = { wkid: 4326, latestWkid: 4326 };

export async function queryLayer(
  database: DatabaseHandle,
  serviceName: string,
  layerId: string,
  params: Record<string, string | undefined>,
): Promise<QueryOutput> {
  const db: Database = database.db;
  const { service, layer } = await readyLayer(db, serviceName, layerId);
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
  const q = normalizeQuery(params, catalog);
  const storage = storageSpatialReference(service);
  const outSR = q.format === 'geojson' ? (q.outSR ?? WGS84) : (q.outSR ?? storage);

  let filterGeometry: EsriGeometry | null = null;
  let filterBounds: Bounds | undefined;
  if (q.geometry) {
    filterGeometry = q.geometry.geometry;
    if (q.geometry.inSR && !sameSpatialReference(q.geometry.inSR, storage)) {
      filterGeometry = createTransformer(q.geometry.inSR, storage).projectGeometry(filterGeometry);
      delete filterGeometry.spatialReference;
      filterBounds = geometryBounds(filterGeometry) ?? undefined;
    }
  }
  const plan = planFeatureQuery(q, catalog, filterBounds ? { filterBounds } : {});
  const exact =
    q.geometry && filterGeometry
      ? (shape: EsriGeometry) => spatialRelationHolds(q.geometry!.spatialRel, filterGeometry!, shape)
      : undefined;
  const rows = await runFeatureQuery(database, plan, exact);
  const toOut = sameSpatialReference(outSR, storage) ? null : createTransformer(storage, outSR);
  const outRef = spatialReferenceForWkid(wkidOf(outSR) ?? 3857);
  const projectBounds = (b: Bounds | null): Bounds | null => {
    if (!b || !toOut) return b;
    // Projecting the envelope samples its edges, so curved projected edges stay inside the result.
    const e = toOut.projectGeometry<EsriEnvelope>({ xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3] });
    return [e.xmin, e.ymin, e.xmax, e.ymax];
  };

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
      return { body: renderExtent(projectBounds(boundsOfRow(rows[0])), outRef), format: q.format };
    case 'countAndExtent':
      return {
        body: renderExtent(projectBounds(boundsOfRow(rows[0])), outRef, rows[0]?.count),
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
      const features = page.rows.map((r) => {
        const row = featureRowOf(plan, r);
        if (row.shape) {
          let shape = toOut ? toOut.projectGeometry(row.shape) : row.shape;
          delete shape.spatialReference;
          if (q.maxAllowableOffset) shape = simplifyGeometry(shape, q.maxAllowableOffset);
          row.shape = shape;
        }
        return row;
      });
      if (q.format === 'geojson') {
        return {
          format: 'geojson',
          body: {
            type: 'FeatureCollection',
            features: features.map((f) => ({
              type: 'Feature',
              id: f.objectid,
              geometry: f.shape ? esriToGeoJSON(f.shape) : null,
              properties: Object.fromEntries(
                plan.columns.map((c) => [
                  c.name,
                  c.name === catalog.objectIdField ? f.objectid : toWireValue(f.attrs[c.name], c.type),
                ]),
              ),
            })),
            ...(page.exceededTransferLimit ? { properties: { exceededTransferLimit: true } } : {}),
          },
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
        returnGeometry: plan.selectShape,
        geometryPrecision: q.geometryPrecision,
      });
      return { body, format: q.format };
    }
  }
}
