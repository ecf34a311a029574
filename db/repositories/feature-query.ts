/**
 * Runs a query plan (lib/query) against a feature table. Fragments become drizzle SQL with every
 * value bound; an exact spatial test, when the plan needs one, runs between its two statements.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { EsriGeometry } from '../../lib/geometry/types.js';
import type { PreparedFeatureQuery } from '../../lib/query/prepare-feature-query.js';
import { dataExceptionError } from '../../lib/query/query-errors.js';
import type { QueryPlan } from '../../lib/query/query-plan.js';
import { parseShape } from '../../lib/query/row-mapping.js';
import type { SqlFragment } from '../../lib/query/sql-chunks.js';
import type { DatabaseHandle } from '../client.js';

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
    // A data exception (class 22: overflow, bad cast) comes from the client's where clause: a 400, not a 500.
    const sqlstate = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code;
    throw dataExceptionError(sqlstate) ?? e;
  }
}

async function runPlan(
  db: DatabaseHandle,
  plan: QueryPlan,
  exact?: (shape: EsriGeometry) => boolean,
  pageSize = CANDIDATE_PAGE,
): Promise<Row[]> {
  if (!plan.spatialFilter || !exact) return db.rows<Row>(toSql(plan.statement()));
  // Candidates page by page: only the ids that pass are kept, never every candidate's shape.
  const ids: number[] = [];
  for (let after = -2147483648; ; ) {
    const candidates = await db.rows<{ objectid: number; shape: unknown }>(
      toSql(plan.spatialFilter.candidatesPage(after, pageSize)),
    );
    for (const c of candidates) {
      const shape = parseShape(c.shape);
      if (shape && exact(shape)) ids.push(Number(c.objectid));
    }
    if (candidates.length < pageSize) break;
    after = Number(candidates[candidates.length - 1].objectid);
  }
  return db.rows<Row>(toSql(plan.statement(ids)));
}
