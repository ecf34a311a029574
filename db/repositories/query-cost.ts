/**
 * A bound on client-shaped statements where no statement timeout can stop them. The embedded PGlite
 * runs in the API's own thread, shares its one connection with the worker, ignores statement_timeout
 * (no timer signals in WebAssembly) and cannot cancel a running statement. So before such a statement
 * runs, the planner prices it (`EXPLAIN (FORMAT JSON)`, planning only) and a statement whose total
 * cost exceeds the budget is refused with a 400 that names the limit. Verdicts are remembered per
 * statement text and parameters for a while, so a repeated query (paging, a map redrawing) plans once.
 */
import { sql } from 'drizzle-orm';
import { badRequest } from '../../lib/errors.js';
import type { SqlFragment } from '../../lib/query/sql-chunks.js';
import type { DatabaseHandle } from '../client.js';

interface CostBudget {
  maxCost: number;
  /** Planner cost by statement key, in insertion order (oldest first), with when it was planned. */
  known: Map<string, { cost: number; at: number }>;
}

const budgets = new WeakMap<DatabaseHandle, CostBudget>();

/** Statements whose cost is remembered; the oldest is forgotten first. */
const MAX_REMEMBERED = 2000;
/** Table sizes change (edits, re-publishing): a remembered cost is re-planned after this long. */
const REMEMBER_MS = 5 * 60_000;

/** Makes every feature query run on `handle` pass the planner-cost check first; 0 turns it off. */
export function limitQueryCost(handle: DatabaseHandle, maxCost: number): void {
  if (maxCost > 0) budgets.set(handle, { maxCost, known: new Map() });
  else budgets.delete(handle);
}

export const queryCostLimit = (handle: DatabaseHandle): number | undefined => budgets.get(handle)?.maxCost;

/** Refuses `statement` when the planner prices it above the handle's budget (if it has one). */
export async function checkQueryCost(handle: DatabaseHandle, statement: SqlFragment): Promise<void> {
  const budget = budgets.get(handle);
  if (!budget) return;
  const cost = await plannedCost(handle, budget, statement);
  if (cost > budget.maxCost) throw tooCostly(cost, budget.maxCost);
}

async function plannedCost(
  handle: DatabaseHandle,
  budget: CostBudget,
  statement: SqlFragment,
): Promise<number> {
  const key = JSON.stringify(statement.chunks);
  const now = Date.now();
  const seen = budget.known.get(key);
  if (seen && now - seen.at < REMEMBER_MS) return seen.cost;
  const chunks = statement.chunks.map((c) => (typeof c === 'string' ? sql.raw(c) : sql`${c.param}`));
  const rows = await handle.rows<Record<string, unknown>>(sql`EXPLAIN (FORMAT JSON) ${sql.join(chunks)}`);
  const cost = totalCost(rows[0]?.['QUERY PLAN']);
  budget.known.delete(key);
  budget.known.set(key, { cost, at: now });
  if (budget.known.size > MAX_REMEMBERED) budget.known.delete(budget.known.keys().next().value as string);
  return cost;
}

/** The top node's Total Cost of an EXPLAIN (FORMAT JSON) answer, parsed or not by the driver. */
function totalCost(plan: unknown): number {
  const parsed = typeof plan === 'string' ? (JSON.parse(plan) as unknown) : plan;
  const cost = (parsed as { Plan?: { 'Total Cost'?: unknown } }[] | undefined)?.[0]?.Plan?.['Total Cost'];
  if (typeof cost !== 'number' || !Number.isFinite(cost))
    throw new Error('EXPLAIN (FORMAT JSON) answered without a total cost');
  return cost;
}

const tooCostly = (cost: number, max: number) =>
  badRequest('Unable to complete operation.', [
    `The database estimates this query at ${Math.round(cost)} cost units; this server answers queries of at most ${max} (QUERY_MAX_COST). Ask for less: a narrower where clause or extent, fewer statistics or groups.`,
  ]);
