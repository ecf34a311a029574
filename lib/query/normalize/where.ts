import type { Condition } from '../where-ast.js';
import { parseWhere } from '../where-parser.js';
import { present } from './parameter-values.js';

/**
 * `where`: parsed into a syntax tree (field names are checked when the plan compiles it).
 * Absent, blank and the `1=1` idiom that clients send for "no filter" all become null, so the
 * planner emits no predicate for them.
 */
export function normalizeWhere(value: string | undefined): Condition | null {
  const text = present(value);
  if (text === undefined) return null;
  const where = parseWhere(text);
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
