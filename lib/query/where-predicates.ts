import { invalidWhere } from './query-errors.js';
import type { Condition, ValueExpr } from './where-ast.js';
import type { Parsed, WhereParser } from './where-parser.js';

/** The predicates that follow a value: [NOT] LIKE ... [ESCAPE], [NOT] IN (...), [NOT] BETWEEN ... AND. */
export function parseLike(p: WhereParser, operand: Parsed & { sort: 'value' }, negated: boolean): Parsed {
  const pattern = p.asValue(p.additive(), p.peek());
  let escapeChar: string | null = null;
  if (p.isWord('ESCAPE')) {
    p.next();
    const e = p.next();
    if (e.kind !== 'string' || [...e.value].length !== 1) {
      throw invalidWhere(`ESCAPE needs a one-character string literal at position ${e.at + 1}`);
    }
    escapeChar = e.value;
  }
  const node: Condition = {
    type: 'like',
    negated,
    operand: operand.node,
    pattern: pattern.node,
    escape: escapeChar,
  };
  return p.checked({ sort: 'condition', node, depth: Math.max(operand.depth, pattern.depth) + 1 });
}

export function parseInList(p: WhereParser, operand: Parsed & { sort: 'value' }, negated: boolean): Parsed {
  p.expectSymbol('(');
  if (p.isSymbol(')')) throw invalidWhere(`an empty IN list at position ${p.peek().at + 1}`);
  const list: ValueExpr[] = [];
  let depth = operand.depth;
  do {
    const item = p.asValue(p.additive(), p.peek());
    list.push(item.node);
    depth = Math.max(depth, item.depth);
  } while (p.isSymbol(',') && p.next());
  p.expectSymbol(')');
  return p.checked({
    sort: 'condition',
    node: { type: 'in', negated, operand: operand.node, list },
    depth: depth + 1,
  });
}

export function parseBetween(p: WhereParser, operand: Parsed & { sort: 'value' }, negated: boolean): Parsed {
  const low = p.asValue(p.additive(), p.peek());
  p.expectWord('AND');
  const high = p.asValue(p.additive(), p.peek());
  const node: Condition = {
    type: 'between',
    negated,
    operand: operand.node,
    low: low.node,
    high: high.node,
  };
  return p.checked({
    sort: 'condition',
    node,
    depth: Math.max(operand.depth, low.depth, high.depth) + 1,
  });
}
