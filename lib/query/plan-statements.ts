import { EXTENT_CORNERS, EXTENT_OF_ROWS } from './extent-sql.js';
import type { PlanColumn, PlanStatistic, QueryMode } from './query-plan.js';
import { fragment, join, param, quoteIdentifier, type SqlFragment } from './sql-chunks.js';

/**
 * The SELECT statement of each query mode. Row shapes, by mode:
 * - features: `objectid`, one key per column name, and the shape (SHAPE_COLUMNS) when asked;
 * - ids: `objectid`; count and countDistinct: `count`; extent: `xmin, ymin, xmax, ymax`
 *   (null when nothing matched); countAndExtent: both;
 * - distinct: one key per column name; statistics: group-by column names and `stat_<i>` aliases.
 */
export interface StatementParts {
  mode: QueryMode;
  columns: PlanColumn[];
  groupBy: PlanColumn[];
  statistics: PlanStatistic[];
  selectShape: boolean;
  orderBy: SqlFragment | null;
  limit: number | null;
  offset: number;
  /** Statistics only: the compiled `having` condition. */
  having?: SqlFragment | null;
}

/**
 * The stored shape as Esri JSON text. A point loaded in bulk keeps no text of its own (row-encoder.ts):
 * its box is the point, so its shape is written here from the box's two doubles, each as the shortest
 * text that reads back as it (sessions pin extra_float_digits 1, db/client.ts), which parse to the very
 * numbers the load stored. Every other row has its text (an edited point too). The product's statements
 * read SHAPE_COLUMNS instead; this one text is for readings that want the shape as text.
 */
export const SHAPE_TEXT = `coalesce("shape", '{"x":' || ("bbox"[0])[0] || ',"y":' || ("bbox"[0])[1] || '}') AS "shape"`;

/**
 * The stored shape as the statements read it: `shape`, the Esri JSON text every row but a point loaded
 * in bulk keeps, and for such a point (no text: its box is the point) its two doubles as `shape_x` and
 * `shape_y` (row-mapping.ts shapeOfRecord). The doubles come as the driver reads any double (the same
 * shortest text SHAPE_TEXT would write), without a text made in SQL and parsed as JSON for each row.
 */
export const SHAPE_COLUMNS = `"shape", CASE WHEN "shape" IS NULL THEN ("bbox"[0])[0] END AS "shape_x", CASE WHEN "shape" IS NULL THEN ("bbox"[0])[1] END AS "shape_y"`;

export function buildStatement(table: string, p: StatementParts, where: SqlFragment | null): SqlFragment {
  const from = ` FROM ${quoteIdentifier(table)}`;
  const filter = where ? fragment(' WHERE ', where) : fragment();
  switch (p.mode) {
    case 'count':
      return fragment('SELECT count(*)::integer AS "count"', from, filter);
    case 'countDistinct':
      return fragment(
        'SELECT count(*)::integer AS "count" FROM (SELECT DISTINCT ',
        columnList(p.columns),
        from,
        filter,
        ') AS "d"',
      );
    case 'extent':
      return fragment(`SELECT ${EXTENT_CORNERS} FROM (SELECT ${EXTENT_OF_ROWS}`, from, filter, ') AS "x"');
    case 'countAndExtent':
      return fragment(
        `SELECT "count", ${EXTENT_CORNERS} FROM (SELECT count(*)::integer AS "count", ${EXTENT_OF_ROWS}`,
        from,
        filter,
        ') AS "x"',
      );
    case 'ids':
      return fragment('SELECT "objectid"', from, filter, ' ORDER BY "objectid"');
    case 'distinct':
      return fragment('SELECT DISTINCT ', columnList(p.columns), from, filter, ordered(p), page(p));
    case 'features': {
      const columns = p.columns.map((c) => c.column).filter((c) => c !== 'objectid');
      const select = [
        '"objectid"',
        ...columns.map(quoteIdentifier),
        ...(p.selectShape ? [SHAPE_COLUMNS] : []),
      ];
      return fragment(`SELECT ${select.join(', ')}`, from, filter, ordered(p), page(p));
    }
    case 'statistics': {
      const groups = p.groupBy.map((c) => quoteIdentifier(c.column));
      const select = join([...groups.map((g) => fragment(g)), ...p.statistics.map(aggregate)], ', ');
      const grouping = groups.length ? ` GROUP BY ${groups.join(', ')}` : '';
      const having = p.having ? fragment(' HAVING ', p.having) : fragment();
      return fragment('SELECT ', select, from, filter, grouping, having, ordered(p), page(p));
    }
  }
}

/** The first phase of an exact spatial query: rows passing every test but the exact one. */
export function candidatesStatement(table: string, where: SqlFragment | null): SqlFragment {
  const filter = where ? fragment(' WHERE ', where) : fragment();
  return fragment(
    `SELECT "objectid", ${SHAPE_COLUMNS} FROM ${quoteIdentifier(table)}`,
    filter,
    ' ORDER BY "objectid"',
  );
}

/**
 * One page of the candidates, after objectid `afterId`: the exact test reads the candidates page by
 * page, so a filter over a huge layer never holds every candidate's shape at once.
 */
export function candidatesPageStatement(
  table: string,
  where: SqlFragment | null,
  afterId: number,
  limit: number,
): SqlFragment {
  const after = fragment('"objectid" > ', param(afterId), '::integer');
  return fragment(
    `SELECT "objectid", ${SHAPE_COLUMNS} FROM ${quoteIdentifier(table)} WHERE `,
    where ? fragment('(', where, ') AND ', after) : after,
    ' ORDER BY "objectid" LIMIT ',
    param(limit),
    '::integer',
  );
}

/** One batch of a returnIdsOnly answer: the matching ids after `afterId`, in order (keyset paging). */
export function idsPageStatement(
  table: string,
  where: SqlFragment | null,
  afterId: number,
  limit: number,
): SqlFragment {
  const after = fragment('"objectid" > ', param(afterId), '::integer');
  return fragment(
    `SELECT "objectid" FROM ${quoteIdentifier(table)} WHERE `,
    where ? fragment('(', where, ') AND ', after) : after,
    ' ORDER BY "objectid" LIMIT ',
    param(limit),
    '::integer',
  );
}

const columnList = (columns: PlanColumn[]): string =>
  columns.map((c) => quoteIdentifier(c.column)).join(', ');

const ordered = (p: StatementParts): SqlFragment =>
  p.orderBy ? fragment(' ORDER BY ', p.orderBy) : fragment();

function page(p: StatementParts): SqlFragment {
  const parts: SqlFragment[] = [];
  if (p.limit !== null) parts.push(fragment(' LIMIT ', param(p.limit), '::integer'));
  if (p.offset > 0) parts.push(fragment(' OFFSET ', param(p.offset), '::integer'));
  return join(parts, '');
}

/**
 * Sample statistics, as the databases ArcGIS fronts compute STDEV and VAR; counts fit integer ids.
 * Percentiles are PostgreSQL's ordered-set aggregates: PERCENTILE_CONT interpolates between the two
 * nearest values, PERCENTILE_DISC is the first value whose cumulative share reaches the fraction.
 */
function aggregate(s: PlanStatistic): SqlFragment {
  const on = s.field ? quoteIdentifier(s.field.column) : '*';
  const alias = quoteIdentifier(s.alias);
  switch (s.statisticType) {
    case 'count':
      return fragment(`count(${on})::integer AS ${alias}`);
    case 'sum':
      return fragment(`sum(${on})::double precision AS ${alias}`);
    case 'avg':
      return fragment(`avg(${on})::double precision AS ${alias}`);
    case 'stddev':
      return fragment(`stddev_samp(${on})::double precision AS ${alias}`);
    case 'var':
      return fragment(`var_samp(${on})::double precision AS ${alias}`);
    case 'min':
      return fragment(`min(${on}) AS ${alias}`);
    case 'max':
      return fragment(`max(${on}) AS ${alias}`);
    case 'percentile_cont':
    case 'percentile_disc': {
      const { value, orderBy } = s.statisticParameters ?? { value: 0.5, orderBy: 'ASC' };
      const cast = s.statisticType === 'percentile_cont' ? '::double precision' : '';
      return fragment(
        `${s.statisticType}(`,
        param(value),
        `::double precision) WITHIN GROUP (ORDER BY ${on} ${orderBy === 'DESC' ? 'DESC' : 'ASC'})${cast} AS ${alias}`,
      );
    }
  }
}
