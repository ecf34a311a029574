/**
 * FeatureServer query engine, pure part. A request flows:
 *
 *   const q = normalizeQuery(lowerCasedParams, layer);        // 400 GeoError naming a bad parameter
 *   const plan = planFeatureQuery(q, layer, { filterBounds }); // filterBounds: filter envelope in storage SR
 *   if (plan.spatialFilter) {                                  // exact predicate needed
 *     run plan.spatialFilter.candidates → keep ids whose shape passes plan.spatialFilter.filter (lib/geometry)
 *     rows = run plan.statement(ids)
 *   } else rows = run plan.statement()
 *   then by plan.mode:
 *     features:  takePage(rows, plan.pageSize) → featureRowOf(plan, r) → project shapes to outSR →
 *                renderFeatureSet(...) or, for f=geojson, renderGeoJson(...)
 *     ids:       renderIds(objectIdFieldName, rows.map(r => r.objectid))
 *     count / countDistinct: renderCount(rows[0].count)
 *     extent / countAndExtent: renderExtent(boundsOfRow(rows[0]) (storage SR, project it), sr, rows[0].count?)
 *     distinct:  takePage → attributesOf(plan.columns, r) → renderDistinctValues(plan.columns, ...)
 *     statistics: takePage → renderStatistics(plan.groupBy, plan.statistics, rows, exceeded)
 *
 * A database error of SQLSTATE class 22 while running a statement is the client's expression
 * failing on the data (e.g. POWER overflow): map it with dataExceptionError(code) to a 400.
 *
 * A SqlFragment is `{ chunks: (string | { param })[] }`: strings are raw SQL, params are bound
 * (the db layer maps them to drizzle `sql`; `toPositional` gives `$n` text for plain drivers).
 * Statements expect the feature table layout described in layer-catalog.ts.
 */

export type { EsriFeature, FeatureSetInput, ResponseLayer } from './feature-response.js';
export {
  boundsOfRow,
  renderCount,
  renderDistinctValues,
  renderExtent,
  renderFeatureSet,
  renderIds,
  renderStatistics,
} from './feature-response.js';
export type { CatalogField, FieldCatalog } from './field-catalog.js';
export { createFieldCatalog } from './field-catalog.js';
export type { EsriFieldType, FieldStorage, ValueKind } from './field-types.js';
export { ESRI_FIELD_TYPES, FIELD_STORAGE, isEsriFieldType, isInstantField } from './field-types.js';
export type { GeoJsonFeature, GeoJsonFeatureCollection } from './geojson-response.js';
export { renderGeoJson } from './geojson-response.js';
export type { LayerCatalog } from './layer-catalog.js';
export { normalizeQuery } from './normalize/normalize-query.js';
export type { QueryParams } from './normalize/parameter-values.js';
export type {
  GeometryFilter,
  NormalizedQuery,
  OrderBy,
  OutFields,
  OutStatistic,
  QueryFormat,
  SpatialRel,
  StatisticType,
} from './normalized-query.js';
export { dataExceptionError, invalidParameter, QUERY_ERROR_MESSAGE } from './query-errors.js';
export type { PlanColumn, PlanOptions, PlanStatistic, QueryMode, QueryPlan } from './query-plan.js';
export { objectIdsFilter, planFeatureQuery } from './query-plan.js';
export type { DbRecord, FeatureRow } from './row-mapping.js';
export { attributesOf, featureRowOf, parseShape, takePage } from './row-mapping.js';
export type { SqlChunk, SqlFragment } from './sql-chunks.js';
export { fragment, join, param, toPositional, wrap } from './sql-chunks.js';
export type { Condition, ValueExpr } from './where-ast.js';
export { compileWhere } from './where-compiler.js';
export { parseWhere } from './where-parser.js';
export { toWireValue } from './wire-values.js';
