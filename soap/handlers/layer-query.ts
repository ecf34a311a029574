/**
 * SOAP query filters on the FeatureServer query engine: a QueryFilter (or SpatialFilter) and a
 * layer's DefinitionExpression become the REST parameters lib/query normalizes, so SOAP and REST
 * answer the same question with the same SQL. Results come back as feature rows in the output
 * spatial reference. Every SOAP operation that reads or draws features comes through here, so the
 * layer's ownership access control narrows them here, for the map's viewer, as the REST query does.
 */
import { ownFeaturesWhere } from '../../db/repositories/access.js';
import { runPreparedQuery } from '../../db/repositories/feature-query.js';
import { narrowedWhere } from '../../lib/access/ownership.js';
import { isGeoError } from '../../lib/errors.js';
import { geometryTypeOf } from '../../lib/geometry/kinds.js';
import type { EsriGeometry, SpatialReference as EsriSpatialReference } from '../../lib/geometry/types.js';
import { outputProjection, prepareFeatureQuery } from '../../lib/query/prepare-feature-query.js';
import { dataExceptionError } from '../../lib/query/query-errors.js';
import type { QueryPlan } from '../../lib/query/query-plan.js';
import { type FeatureRow, featureRowOf, takePage } from '../../lib/query/row-mapping.js';
import { clientFault } from '../fault.js';
import type { AnyQueryFilter } from '../schema/generated-types.js';
import type { HostedMap, MapLayer, MapServiceDeps } from './map-context.js';
import { fromSoapSpatialReference, geometrySpatialReference, toEsriGeometry } from './wire-geometry.js';

export interface GeometryCondition {
  geometry: EsriGeometry;
  /** The geometry's spatial reference; null means the map's own. */
  sr: EsriSpatialReference | null;
  /** An esriSpatialRel… name. */
  spatialRel: string;
}

export interface LayerQuery {
  filter?: AnyQueryFilter | null;
  /** The LayerDescription's DefinitionExpression, ANDed with the filter's where clause. */
  definitionExpression?: string;
  /** An extra condition (Find's text match), ANDed as well. */
  where?: string;
  objectIds?: readonly number[];
  geometry?: GeometryCondition;
  mode: 'count' | 'ids' | 'features' | 'statistics';
  returnGeometry?: boolean;
  /** Field list; defaults to the filter's SubFields, then `*`. */
  outFields?: string;
  outSR?: EsriSpatialReference | null;
  outStatistics?: unknown[];
  groupBy?: string;
  orderBy?: string;
  /** Rows wanted at most; the layer's maxRecordCount caps it anyway. */
  recordCount?: number;
  /** Replaces the layer's maxRecordCount (drawing a map needs every feature in view). */
  maxRecords?: number;
  /** A time extent in epoch ms (null ends open), for time-aware layers: the REST export's `time`. */
  time?: { start: number | null; end: number | null };
}

export interface LayerQueryResult {
  plan: QueryPlan;
  count: number;
  ids: number[];
  rows: FeatureRow[];
  /** Raw database rows, for statistics. */
  records: Record<string, unknown>[];
  exceededTransferLimit: boolean;
  /** The spatial reference of the shapes in `rows`. */
  outSR: EsriSpatialReference;
}

const and = (parts: (string | undefined)[]): string | undefined => {
  const kept = parts.map((p) => p?.trim()).filter((p): p is string => Boolean(p));
  if (kept.length === 0) return undefined;
  return kept.length === 1 ? kept[0] : kept.map((p) => `(${p})`).join(' AND ');
};

/** The spatial part of a SOAP filter, if it is a SpatialFilter with a geometry. */
export function filterGeometry(filter: AnyQueryFilter | null | undefined): GeometryCondition | undefined {
  if (!filter || !('FilterGeometry' in filter) || !filter.FilterGeometry) return undefined;
  const g = filter.FilterGeometry;
  return {
    geometry: toEsriGeometry(g),
    sr: geometrySpatialReference(g),
    spatialRel: (filter.SpatialRel ?? 'geoSpatialRelIntersects').replace(/^geo/, 'esri'),
  };
}

/** Query errors name a REST parameter; a SOAP client is told what was wrong in its own terms. */
function translateError(error: unknown): unknown {
  const sqlState = (error as { code?: unknown }).code;
  const dataError = typeof sqlState === 'string' ? dataExceptionError(sqlState) : null;
  const e = dataError ?? error;
  if (!isGeoError(e) || e.code >= 500) return error;
  const [what = '', problem = e.message] = e.details;
  const param = /'([^']+)' parameter/.exec(what)?.[1];
  if (param === 'where') return clientFault(`Invalid where clause: ${problem}`, e.details);
  if (param) return clientFault(`Invalid ${param}: ${problem}`, e.details);
  return clientFault(e.message, e.details);
}

export async function queryMapLayer(
  deps: MapServiceDeps,
  map: HostedMap,
  layer: MapLayer,
  q: LayerQuery,
): Promise<LayerQueryResult> {
  await map.mayReadFeatures();
  const storage = map.spatialReference;
  const filter = q.filter ?? undefined;
  const geometry = q.geometry ?? filterGeometry(filter);
  const fids = filter?.FIDSet?.FIDArray;
  const objectIds = q.objectIds ?? (fids && fids.length > 0 ? fids : undefined);
  const outSR = q.outSR ?? fromSoapSpatialReference(filter?.OutputSpatialReference) ?? storage;
  const own = map.service
    ? await ownFeaturesWhere(deps.database.db, map.service, layer.row, map.viewer)
    : null;
  const params: Record<string, string | undefined> = {
    f: 'json',
    where: and([filter?.WhereClause, q.definitionExpression, q.where]),
    objectids: objectIds?.join(','),
    outfields: q.outFields ?? (filter?.SubFields?.trim() || '*'),
    returngeometry: String(q.returnGeometry ?? true),
    returncountonly: String(q.mode === 'count'),
    returnidsonly: String(q.mode === 'ids'),
    outstatistics: q.outStatistics ? JSON.stringify(q.outStatistics) : undefined,
    groupbyfieldsforstatistics: q.groupBy,
    orderbyfields: q.orderBy,
    resultrecordcount: q.recordCount !== undefined ? String(q.recordCount) : undefined,
    time: q.time ? `${q.time.start ?? 'null'},${q.time.end ?? 'null'}` : undefined,
  };
  if (geometry) {
    // Projected into the storage reference by prepareFeatureQuery, as a REST inSR is.
    params.geometry = JSON.stringify(geometry.geometry);
    params.geometrytype = geometryTypeOf(geometry.geometry);
    params.spatialrel = geometry.spatialRel;
    // No reference of its own means the map's: said explicitly, so a spatialReference member is not read.
    params.insr = JSON.stringify(geometry.sr ?? storage);
  }
  try {
    // Narrowed last, around the whole clause, so nothing the client sends can reach past it.
    if (own) params.where = narrowedWhere(params.where, own);
    const catalog = q.maxRecords ? { ...layer.catalog, maxRecordCount: q.maxRecords } : layer.catalog;
    const prepared = prepareFeatureQuery(params, catalog, storage);
    const records = await runPreparedQuery(deps.database, prepared);
    return shapeResult(prepared.plan, records, storage, outSR);
  } catch (error) {
    throw translateError(error);
  }
}

function shapeResult(
  plan: QueryPlan,
  records: Record<string, unknown>[],
  storage: EsriSpatialReference,
  outSR: EsriSpatialReference,
): LayerQueryResult {
  const base = { plan, count: 0, ids: [], rows: [], records, exceededTransferLimit: false, outSR };
  if (plan.mode === 'count' || plan.mode === 'countDistinct')
    return { ...base, count: Number(records[0]?.count ?? 0) };
  if (plan.mode === 'ids') {
    const ids = records.map((r) => Number(r.objectid));
    return { ...base, ids, count: ids.length };
  }
  const page = takePage(records, plan.pageSize);
  if (plan.mode === 'statistics')
    return { ...base, records: page.rows, exceededTransferLimit: page.exceededTransferLimit };
  const toOut = outputProjection(storage, outSR);
  const rows = page.rows.map((r) => {
    const row = featureRowOf(plan, r);
    if (row.shape) row.shape = toOut.shape(row.shape);
    return row;
  });
  return { ...base, rows, count: rows.length, exceededTransferLimit: page.exceededTransferLimit };
}
