import { GeoError } from '../../errors.js';
import { invalidParameter } from '../query-errors.js';
import type { Condition, ValueExpr } from '../where-ast.js';
import { parseWhere } from '../where-parser.js';
import { fail, present } from './parameter-values.js';

/**
 * `having`: a condition on the groups of a statistics query, in the where grammar plus the aggregates
 * AVG, COUNT, MAX, MIN, STDDEV, SUM and VAR over the layer's fields (`SUM(POP) > 1000 AND
 * COUNT(*) >= 2`). Outside an aggregate only the group-by fields may be named, as SQL requires;
 * fields are otherwise checked, and everything bound as parameters, when the plan compiles it.
 */
export function normalizeHaving(
  value: string | undefined,
  dialect: 'standard' | 'native',
  groupBy: readonly string[],
  hasStatistics: boolean,
): Condition | null {
  const text = present(value);
  if (text === undefined) return null;
  if (!hasStatistics) throw fail('having', 'having needs outStatistics');
  const condition = asHavingError(() => parseWhere(text, { dialect, aggregates: true }));
  const grouped = new Set(groupBy.map((g) => g.toLowerCase()));
  let aggregates = 0;
  const walkValue = (e: ValueExpr, inside: boolean): void => {
    switch (e.type) {
      case 'field':
        if (!inside && !grouped.has(e.name.toLowerCase()))
          throw fail('having', `'${e.name}' is neither inside an aggregate nor a group-by field`);
        return;
      case 'aggregate':
        aggregates++;
        if (e.operand) walkValue(e.operand, true);
        return;
      case 'negate':
      case 'extract':
      case 'cast':
        walkValue(e.operand, inside);
        return;
      case 'trim':
        walkValue(e.operand, inside);
        if (e.characters) walkValue(e.characters, inside);
        return;
      case 'arithmetic':
        walkValue(e.left, inside);
        walkValue(e.right, inside);
        return;
      case 'call':
        for (const a of e.args) walkValue(a, inside);
        return;
      default:
        return;
    }
  };
  const walk = (c: Condition): void => {
    switch (c.type) {
      case 'and':
      case 'or':
        for (const o of c.operands) walk(o);
        return;
      case 'not':
        walk(c.operand);
        return;
      case 'compare':
        walkValue(c.left, false);
        walkValue(c.right, false);
        return;
      case 'like':
        walkValue(c.operand, false);
        walkValue(c.pattern, false);
        return;
      case 'in':
        walkValue(c.operand, false);
        for (const v of c.list) walkValue(v, false);
        return;
      case 'between':
        for (const v of [c.operand, c.low, c.high]) walkValue(v, false);
        return;
      case 'isNull':
        walkValue(c.operand, false);
        return;
    }
  };
  walk(condition);
  if (aggregates === 0)
    throw fail('having', 'having must test at least one aggregate (AVG, COUNT, MAX, MIN, STDDEV, SUM, VAR)');
  return condition;
}

/** The where grammar's errors name `where`; here they are about `having`. */
export function asHavingError<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof GeoError && e.details[0] === "'where' parameter is invalid")
      throw invalidParameter('having', e.details[1] ?? 'the having clause is invalid');
    throw e;
  }
}
