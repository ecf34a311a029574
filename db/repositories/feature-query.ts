/**
 * Runs a query plan (lib/query) against a feature table. Fragments become drizzle SQL with every
 * value bound; an exact spatial test, when the plan needs one, runs between its two statements. Where
 * the handle has a cost budget (the embedded PGlite, query-cost.ts), each statement is priced first.
 */
import { type SQL, sql } from 'drizzle-orm';
import { isGeoError } from '../../lib/errors.js';
import type { EsriGeometry } from '../../lib/geometry/types.js';
import type { PreparedFeatureQuery } from '../../lib/query/prepare-feature-query.js';
import { dataExceptionError } from '../../lib/query/query-errors.js';
import type { QueryPlan } from '../../lib/query/query-plan.js';
import { shapeOfRecord } from '../../lib/query/row-mapping.js';
import type { SqlFragment } from '../../lib/query/sql-chunks.js';
import type { DatabaseHandle } from '../client.js';
import { checkQueryCost } from './query-cost.js';

export function toSql(f: SqlFragment): SQL {
  return sql.join(
    f.chunks.map((chunk) => (typeof chunk === 'string' ? sql.raw(chunk) : sql`${chunk.param}`)),
  );
}

export type Row = Record<string, unknown>;

/** The rows of a prepared query (lib/query prepareFeatureQuery): the one runner every surface uses. */
export function runPreparedQuery(db: DatabaseHandle, prepared: PreparedFeatureQuery): Promise<Row[]> {
  return runFeatureQuery(db, prepared.plan, prepared.exact);
}

/** Candidates of an exact spatial test read at once. */
const CANDIDATE_PAGE = 2000;

/**
 * The rows of a plan. `exact` decides, for a candidate's stored shape, whether it passes the spatial
 * filter; it is required when the plan has a spatialFilter.
 */
export async function runFeatureQuery(
  db: DatabaseHandle,
  plan: QueryPlan,
  exact?: (shape: EsriGeometry) => boolean,
  candidatePage = CANDIDATE_PAGE,
): Promise<Row[]> {
  try {
    return await runPlan(db, plan, exact, candidatePage);
  } catch (e) {
    throw asQueryError(e);
  }
}

/** A data exception (class 22: overflow, bad cast) comes from the client's where clause: a 400, not a 500. */
function asQueryError(e: unknown): unknown {
  if (isGeoError(e)) return e;
  const sqlstate = (e as { code?: unknown }).code ?? (e as { cause?: { code?: unknown } }).cause?.code;
  return (typeof sqlstate === 'string' && dataExceptionError(sqlstate)) || e;
}

/**
 * streamPreparedIds with the price check and the first batch already read, so that a refused or
 * failing query throws here, before an answer starts, and the rest is read as it is consumed.
 */
export async function startPreparedIds(
  db: DatabaseHandle,
  prepared: PreparedFeatureQuery,
  batch = ID_BATCH,
): Promise<AsyncIterable<number[]>> {
  const ids = streamPreparedIds(db, prepared, batch);
  const first = await ids.next();
  return {
    async *[Symbol.asyncIterator]() {
      if (first.done) return;
      yield first.value;
      yield* ids;
    },
  };
}

/** Ids of a returnIdsOnly answer read at once. */
const ID_BATCH = 10_000;

/**
 * The ids of a prepared returnIdsOnly query, batch by batch in objectid order, read with keyset paging
 * (`objectid > last`): memory holds one batch whatever the layer's size, each batch is a short statement
 * (the embedded PGlite serves other requests between them), and the whole scan is priced once first.
 */
export async function* streamPreparedIds(
  db: DatabaseHandle,
  prepared: PreparedFeatureQuery,
  batch = ID_BATCH,
): AsyncGenerator<number[]> {
  const { plan, exact } = prepared;
  const spatial = plan.spatialFilter && exact ? plan.spatialFilter : null;
  try {
    await checkQueryCost(db, spatial ? spatial.candidates : plan.statement());
    for (let after = -2147483648; ; ) {
      const statement = spatial ? spatial.candidatesPage(after, batch) : plan.idsPage(after, batch);
      const rows = await db.rows<{ objectid: number } & Record<string, unknown>>(toSql(statement));
      const ids: number[] = [];
      for (const r of rows) {
        if (!spatial) ids.push(Number(r.objectid));
        else {
          const shape = shapeOfRecord(r);
          if (shape && exact!(shape)) ids.push(Number(r.objectid));
        }
      }
      if (ids.length > 0) yield ids;
      if (rows.length < batch) return;
      after = Number(rows[rows.length - 1].objectid);
    }
  } catch (e) {
    throw asQueryError(e);
  }
}

async function runPlan(
  db: DatabaseHandle,
  plan: QueryPlan,
  exact?: (shape: EsriGeometry) => boolean,
  pageSize = CANDIDATE_PAGE,
): Promise<Row[]> {
  if (!plan.spatialFilter || !exact) {
    await checkQueryCost(db, plan.statement());
    return db.rows<Row>(toSql(plan.statement()));
  }
  await checkQueryCost(db, plan.spatialFilter.candidates);
  // Candidates page by page: only the ids that pass are kept, never every candidate's shape.
  const ids: number[] = [];
  for (let after = -2147483648; ; ) {
    const candidates = await db.rows<{ objectid: number } & Record<string, unknown>>(
      toSql(plan.spatialFilter.candidatesPage(after, pageSize)),
    );
    for (const c of candidates) {
      const shape = shapeOfRecord(c);
      if (shape && exact(shape)) ids.push(Number(c.objectid));
    }
    if (candidates.length < pageSize) break;
    after = Number(candidates[candidates.length - 1].objectid);
  }
  const statement = plan.statement(ids);
  await checkQueryCost(db, statement);
  return db.rows<Row>(toSql(statement));
}
