import type { Bounds } from '../geometry/types.js';
import type { CatalogField } from './field-catalog.js';
import type { LayerCatalog } from './layer-catalog.js';
import { asHavingError } from './normalize/having.js';
import type { GeometryFilter, NormalizedQuery, OutStatistic, TimeFilter } from './normalized-query.js';
import {
  buildStatement,
  candidatesPageStatement,
  candidatesStatement,
  idsPageStatement,
} from './plan-statements.js';
import { invalidParameter } from './query-errors.js';
import { MAX_RECORD_COUNT } from './query-limits.js';
import { fragment, join, param, quoteIdentifier, type SqlFragment, typedParam } from './sql-chunks.js';
import { compileWhere } from './where-compiler.js';

export type { LayerCatalog } from './layer-catalog.js';

/**
 * What a query asks for. Exactly one mode per request, chosen as ArcGIS does: statistics first,
 * then count (with extent if asked, or over distinct values), ids, extent, distinct, features.
 */
export type QueryMode =
  | 'features'
  | 'count'
  | 'countDistinct'
  | 'ids'
  | 'extent'
  | 'countAndExtent'
  | 'distinct'
  | 'statistics';

/** An attribute read from the table: its Esri name, column and type. Row keys are the column names. */
export type PlanColumn = CatalogField;

/** One aggregate of a statistics query; rows carry it under `alias`. */
export interface PlanStatistic extends OutStatistic {
  alias: string;
  /** The field the statistic is taken on; null for count(*). */
  field: CatalogField | null;
}

export interface QueryPlan {
  mode: QueryMode;
  /** Attribute columns in output order; for features the object id field comes first. */
  columns: PlanColumn[];
  /** Group-by columns of a statistics query, in order. */
  groupBy: PlanColumn[];
  statistics: PlanStatistic[];
  /** Whether rows carry the `shape` column (features with returnGeometry or returnCentroid). */
  selectShape: boolean;
  /** Statistics: the compiled `having` condition on the groups; null for none. */
  having: SqlFragment | null;
  /** The whole filter: where AND objectIds AND the bbox prefilter; null when there is none. */
  where: SqlFragment | null;
  orderBy: SqlFragment | null;
  /** Rows the client may get: min(resultRecordCount, maxRecordCount); null when unpaged. */
  pageSize: number | null;
  /** Rows asked of the database: pageSize + 1, so an extra row means exceededTransferLimit. */
  limit: number | null;
  offset: number;
  /**
   * Set when the bbox index test is not the whole spatial predicate. The executor then runs
   * `candidates` (objectid and shape of rows passing where, objectIds and the bbox test), keeps
   * the ids whose shape passes `filter` exactly (lib/geometry), and runs `statement(ids)`.
   * Paging, counting and aggregation thus stay in SQL and stay correct, rather than paging a
   * bbox-filtered page in JS, which would drop rows and misreport exceededTransferLimit.
   */
  spatialFilter: {
    filter: GeometryFilter;
    candidates: SqlFragment;
    /** The candidates after objectid `afterId`, at most `limit` of them, in objectid order. */
    candidatesPage(afterId: number, limit: number): SqlFragment;
  } | null;
  /** The statement to run; pass the exactly-matching ids when `spatialFilter` is set. */
  statement(matchingIds?: readonly number[]): SqlFragment;
  /**
   * The matching object ids after `afterId`, at most `limit`, in order (returnIdsOnly read in batches,
   * without the exact spatial test, which the executor applies to `spatialFilter.candidatesPage`).
   */
  idsPage(afterId: number, limit: number): SqlFragment;
}

export interface PlanOptions {
  /**
   * Envelope of the filter geometry in the storage spatial reference. Omit it when the geometry
   * is already in the storage spatial reference; the geometry's own envelope is then used.
   */
  filterBounds?: Bounds;
}

const DEFAULT_MAX_RECORD_COUNT = 2000;

export function planFeatureQuery(
  q: NormalizedQuery,
  layer: LayerCatalog,
  options: PlanOptions = {},
): QueryPlan {
  const mode = modeOf(q);
  const oidField = layer.fields.lookup(layer.objectIdField);
  const declared = q.resultType
    ? (layer.resultTypeMaxRecordCount?.[q.resultType] ?? layer.maxRecordCount)
    : layer.maxRecordCount > 0
      ? layer.maxRecordCount
      : DEFAULT_MAX_RECORD_COUNT;
  // maxRecordCountFactor raises the page, still within the fixed bound on one page's rows.
  const maxRecordCount = Math.min(
    declared * (q.maxRecordCountFactor ?? 1),
    Math.max(declared, MAX_RECORD_COUNT),
  );
  const paged = mode === 'features' || mode === 'distinct' || mode === 'statistics';
  const pageSize = paged ? Math.min(q.resultRecordCount ?? maxRecordCount, maxRecordCount) : null;
  const filters: SqlFragment[] = [];
  if (q.where) filters.push(compileWhere(q.where, layer.fields));
  if (q.objectIds) filters.push(objectIdsFilter(q.objectIds));
  if (q.time) filters.push(timeFilter(q.time, layer));
  let spatialFilter: QueryPlan['spatialFilter'] = null;
  if (q.geometry) {
    const [xmin, ymin, xmax, ymax] = options.filterBounds ?? q.geometry.bounds;
    filters.push(bboxFilter(xmin, ymin, xmax, ymax, layer.geometryType === 'esriGeometryPoint'));
  }
  const where = filters.length ? join(filters, ' AND ') : null;
  if (q.geometry && !bboxIsExact(q, layer, options)) {
    spatialFilter = {
      filter: q.geometry,
      candidates: candidatesStatement(layer.table, where),
      candidatesPage: (afterId, limit) => candidatesPageStatement(layer.table, where, afterId, limit),
    };
  }
  const columns = columnsOf(q, layer, mode, oidField);
  const groupBy = q.groupByFieldsForStatistics.map((name) => layer.fields.lookup(name)!);
  const statistics = (q.outStatistics ?? []).map((s, i) => ({
    ...s,
    alias: `stat_${i}`,
    field: s.onStatisticField === '*' ? null : layer.fields.lookup(s.onStatisticField)!,
  }));
  const orderBy = orderByOf(q, layer, mode, columns, groupBy, statistics);
  const having = q.having ? asHavingError(() => compileWhere(q.having!, layer.fields)) : null;
  const plan = {
    mode,
    columns,
    groupBy,
    statistics,
    // A centroid is computed from the shape, so it is read even when the geometry is not returned.
    selectShape: mode === 'features' && (q.returnGeometry || q.returnCentroid),
    having,
    where,
    orderBy,
    pageSize,
    limit: pageSize === null ? null : pageSize + 1,
    offset: paged ? q.resultOffset : 0,
    spatialFilter,
  };
  return {
    ...plan,
    statement: (ids) => buildStatement(layer.table, plan, ids === undefined ? where : objectIdsFilter(ids)),
    idsPage: (afterId, limit) => idsPageStatement(layer.table, where, afterId, limit),
  };
}

function modeOf(q: NormalizedQuery): QueryMode {
  if (q.outStatistics) return 'statistics';
  if (q.returnCountOnly && q.returnExtentOnly) return 'countAndExtent';
  if (q.returnCountOnly) return q.returnDistinctValues ? 'countDistinct' : 'count';
  if (q.returnIdsOnly) return 'ids';
  if (q.returnExtentOnly) return 'extent';
  if (q.returnDistinctValues) return 'distinct';
  return 'features';
}

/**
 * The bbox test alone is the whole predicate for envelope-intersects, and for points intersecting
 * an envelope given in the storage spatial reference (a point's bbox is the point itself). Other
 * relations on points are not: Esri reads them from the query geometry's side, so Within asks
 * whether the envelope lies within the point, and Contains excludes points on the boundary.
 */
function bboxIsExact(q: NormalizedQuery, layer: LayerCatalog, options: PlanOptions): boolean {
  const g = q.geometry!;
  if (g.distance) return false;
  if (g.spatialRel === 'esriSpatialRelEnvelopeIntersects' || g.spatialRel === 'esriSpatialRelIndexIntersects')
    return true;
  return (
    layer.geometryType === 'esriGeometryPoint' &&
    g.geometryType === 'esriGeometryEnvelope' &&
    g.spatialRel === 'esriSpatialRelIntersects' &&
    options.filterBounds === undefined
  );
}

/**
 * `time` against the layer's timeInfo, as ArcGIS's default relation (overlaps): a feature's span runs
 * from its start field to its end field and matches when it overlaps the asked extent, ends
 * included; an open end of the extent bounds nothing. A layer without an end field has instants. A
 * null end time means the feature has not ended (a station still open), which is what a client
 * reading a start and an end expects; ArcGIS does not document it. Features without a start never match.
 */
function timeFilter(t: TimeFilter, layer: LayerCatalog): SqlFragment {
  const info = layer.timeInfo;
  const start = info && layer.fields.lookup(info.startField);
  if (!info || !start) throw invalidParameter('time', 'this layer is not time-aware (it has no timeInfo)');
  const end = info.endField ? layer.fields.lookup(info.endField) : undefined;
  const startColumn = quoteIdentifier(start.column);
  const instant = (ms: number) => typedParam(new Date(ms).toISOString(), 'timestamptz');
  const tests: SqlFragment[] = [fragment(`${startColumn} IS NOT NULL`)];
  if (t.end !== null) tests.push(fragment(`${startColumn} <= `, instant(t.end)));
  if (t.start !== null) {
    const endColumn = end ? quoteIdentifier(end.column) : null;
    tests.push(
      endColumn
        ? fragment(`(${endColumn} IS NULL OR ${endColumn} >= `, instant(t.start), ')')
        : fragment(`${startColumn} >= `, instant(t.start)),
    );
  }
  return fragment('(', join(tests, ' AND '), ')');
}

/** Ids travel as one array parameter: a long list cannot exhaust the statement's parameter slots. */
export const objectIdsFilter = (ids: readonly number[]): SqlFragment =>
  fragment('"objectid" = ANY(', param(`{${ids.join(',')}}`), '::integer[])');

/**
 * The box prefilter. A point's box is the point itself, so for point layers the same test is also
 * written as the point in the box, which the point index (GiST, built sorted) serves; the planner
 * uses whichever index the table has.
 */
const bboxFilter = (xmin: number, ymin: number, xmax: number, ymax: number, points = false): SqlFragment => {
  const box = () =>
    fragment(
      'box(point(',
      param(xmin),
      '::double precision, ',
      param(ymin),
      '::double precision), point(',
      param(xmax),
      '::double precision, ',
      param(ymax),
      '::double precision))',
    );
  return points
    ? fragment('"bbox" && ', box(), ' AND ("bbox"[0]) <@ ', box())
    : fragment('"bbox" && ', box());
};

function columnsOf(
  q: NormalizedQuery,
  layer: LayerCatalog,
  mode: QueryMode,
  oid: CatalogField | undefined,
): PlanColumn[] {
  if (mode !== 'features' && mode !== 'distinct' && mode !== 'countDistinct') return [];
  const fields = q.outFields.names.map((name) => layer.fields.lookup(name)!);
  if (mode !== 'features' || !oid) return fields;
  return [oid, ...fields.filter((f) => f.name !== oid.name)];
}

function orderByOf(
  q: NormalizedQuery,
  layer: LayerCatalog,
  mode: QueryMode,
  columns: PlanColumn[],
  groupBy: PlanColumn[],
  statistics: PlanStatistic[],
): SqlFragment | null {
  const quoted = (c: string) => `"${c}"`;
  if (mode === 'ids') return fragment('"objectid"');
  if (mode === 'features') {
    const keys = q.orderBy.map((o) => `${quoted(layer.fields.lookup(o.field)!.column)} ${o.direction}`);
    // The object id last makes pages stable when the other keys tie.
    return fragment(
      join(
        [...keys, '"objectid"'].map((k) => fragment(k)),
        ', ',
      ),
    );
  }
  if (mode === 'distinct') {
    const keys = q.orderBy.map((o) => {
      const column = columns.find((c) => c.name === o.field);
      if (!column)
        throw invalidParameter(
          'orderByFields',
          `'${o.field}' must be one of outFields with returnDistinctValues`,
        );
      return `${quoted(column.column)} ${o.direction}`;
    });
    const rest = columns
      .filter((c) => !q.orderBy.some((o) => o.field === c.name))
      .map((c) => quoted(c.column));
    return fragment([...keys, ...rest].join(', '));
  }
  if (mode === 'statistics') {
    const keys = q.orderBy.map((o) => {
      const stat = statistics.find((s) => s.outStatisticFieldName === o.field);
      if (stat) return `${quoted(stat.alias)} ${o.direction}`;
      const column = groupBy.find((c) => c.name === o.field);
      if (!column) {
        throw invalidParameter(
          'orderByFields',
          `'${o.field}' must be a group-by field or a statistic's output name`,
        );
      }
      return `${quoted(column.column)} ${o.direction}`;
    });
    const rest = groupBy
      .filter((c) => !q.orderBy.some((o) => o.field === c.name))
      .map((c) => quoted(c.column));
    const all = [...keys, ...rest];
    return all.length ? fragment(all.join(', ')) : null;
  }
  return null;
}
