import type { SqlDialect } from '../normalized-query.js';
import type { Condition } from '../where-ast.js';
import { parseWhere } from '../where-parser.js';
import { fail, present } from './parameter-values.js';

/**
 * `where`: parsed into a syntax tree (field names are checked when the plan compiles it).
 * Absent, blank and the `1=1` idiom that clients send for "no filter" all become null, so the
 * planner emits no predicate for them.
 */
export function normalizeWhere(
  value: string | undefined,
  dialect: SqlDialect = 'standard',
): Condition | null {
  const text = present(value);
  if (text === undefined) return null;
  const where = parseWhere(text, { dialect });
  return isAlwaysTrue(where) ? null : where;
}

/** `n = n` between two equal number literals. */
function isAlwaysTrue(c: Condition): boolean {
  return (
    c.type === 'compare' &&
    c.operator === '=' &&
    c.left.type === 'number' &&
    c.right.type === 'number' &&
    c.left.value === c.right.value
  );
}

/**
 * `sqlFormat`: `standard` reads where and having as ArcGIS standardized SQL; `native` with the
 * function names of the underlying database, PostgreSQL (where-functions.ts); `none`, the default,
 * follows useStandardizedQueries, which is true on every hosted layer here, so it is standard.
 */
export function normalizeSqlFormat(value: string | undefined): SqlDialect {
  const text = present(value)?.toLowerCase();
  if (text === undefined || text === 'none' || text === 'standard') return 'standard';
  if (text === 'native') return 'native';
  throw fail('sqlFormat', `'${value}' is not one of none, standard, native`);
}
