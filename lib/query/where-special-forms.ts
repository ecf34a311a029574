import { invalidWhere } from './query-errors.js';
import type { CastType, CurrentValue, DatePart, TrimSide, ValueExpr } from './where-ast.js';
import {
  dateLiteral,
  INTERVAL_UNITS,
  type IntervalUnit,
  intervalLiteral,
  timeLiteral,
  timestampLiteral,
} from './where-literals.js';
import { describe, type Parsed, type WhereParser } from './where-parser.js';
import type { Token } from './where-tokenizer.js';

/**
 * The keyword-shaped parts of the grammar: typed literals (DATE, TIMESTAMP, TIME, INTERVAL),
 * CURRENT_* values and the functions whose arguments are separated by words (EXTRACT, CAST, TRIM,
 * SUBSTRING ... FROM ... FOR, POSITION ... IN). Returns null when the word is none of them.
 */
export function parseSpecialForm(p: WhereParser, t: Token & { kind: 'word' }): Parsed | null {
  const literal = typedLiteral(p, t);
  if (literal) return { sort: 'value', node: literal, depth: 1 };
  if (CURRENT.has(t.upper)) {
    if (p.isSymbol('(') && p.isSymbol(')', 1)) {
      p.next();
      p.next();
    }
    return { sort: 'value', node: { type: 'current', value: t.upper as CurrentValue }, depth: 1 };
  }
  if (!p.isSymbol('(')) return null;
  switch (t.upper) {
    case 'EXTRACT':
      return extract(p);
    case 'CAST':
      return cast(p);
    case 'TRIM':
      return trim(p);
    case 'SUBSTRING':
      return substring(p);
    case 'POSITION':
      return position(p);
    default:
      return null;
  }
}

const CURRENT = new Set(['CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP']);
const DATE_PARTS = new Set(['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND']);
const TRIM_SIDES = new Set(['BOTH', 'LEADING', 'TRAILING']);
const CAST_TYPES: Record<string, CastType> = {
  INT: 'INT',
  INTEGER: 'INT',
  SMALLINT: 'INT',
  BIGINT: 'INT',
  FLOAT: 'FLOAT',
  REAL: 'FLOAT',
  DOUBLE: 'FLOAT',
  DECIMAL: 'FLOAT',
  NUMERIC: 'FLOAT',
  CHAR: 'CHAR',
  VARCHAR: 'CHAR',
  NCHAR: 'CHAR',
  NVARCHAR: 'CHAR',
  TEXT: 'CHAR',
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
};

function typedLiteral(p: WhereParser, t: Token & { kind: 'word' }): ValueExpr | null {
  const next = p.peek();
  if (next.kind !== 'string') return null;
  switch (t.upper) {
    case 'DATE':
      p.next();
      return dateLiteral(next.value);
    case 'TIMESTAMP':
      p.next();
      return { type: 'timestamp', value: timestampLiteral(next.value) };
    case 'TIME':
      p.next();
      return { type: 'time', value: timeLiteral(next.value) };
    case 'INTERVAL': {
      p.next();
      const unit = p.next();
      if (unit.kind !== 'word' || !(INTERVAL_UNITS as readonly string[]).includes(unit.upper)) {
        throw invalidWhere(
          `INTERVAL needs a unit (YEAR, MONTH, DAY, HOUR, MINUTE or SECOND) at position ${unit.at + 1}`,
        );
      }
      let toSecond = false;
      if (p.isWord('TO')) {
        p.next();
        p.expectWord('SECOND');
        toSecond = true;
      }
      return { type: 'interval', value: intervalLiteral(next.value, unit.upper as IntervalUnit, toSecond) };
    }
    default:
      return null;
  }
}

function valueArg(p: WhereParser): Parsed & { sort: 'value' } {
  return p.asValue(p.additive(), p.peek());
}

function extract(p: WhereParser): Parsed {
  p.expectSymbol('(');
  const part = p.next();
  if (part.kind !== 'word' || !DATE_PARTS.has(part.upper)) {
    throw invalidWhere(`EXTRACT needs YEAR, MONTH, DAY, HOUR, MINUTE or SECOND, not ${describe(part)}`);
  }
  p.expectWord('FROM');
  const operand = valueArg(p);
  p.expectSymbol(')');
  const node: ValueExpr = { type: 'extract', part: part.upper as DatePart, operand: operand.node };
  return { sort: 'value', node, depth: operand.depth + 1 };
}

function cast(p: WhereParser): Parsed {
  p.expectSymbol('(');
  const operand = valueArg(p);
  p.expectWord('AS');
  const type = p.next();
  const to = type.kind === 'word' ? CAST_TYPES[type.upper] : undefined;
  if (!to)
    throw invalidWhere(`CAST to ${describe(type)} is not supported; use INT, FLOAT, CHAR, DATE or TIMESTAMP`);
  if (type.kind === 'word' && type.upper === 'DOUBLE' && p.isWord('PRECISION')) p.next();
  if (p.isSymbol('(')) {
    // A length or precision, e.g. VARCHAR(20) or DECIMAL(10,2): accepted and not needed.
    p.next();
    while (p.peek().kind === 'number' || p.isSymbol(',')) p.next();
    p.expectSymbol(')');
  }
  p.expectSymbol(')');
  return { sort: 'value', node: { type: 'cast', operand: operand.node, to }, depth: operand.depth + 1 };
}

function trim(p: WhereParser): Parsed {
  p.expectSymbol('(');
  let side: TrimSide = 'BOTH';
  const sideToken = p.peek();
  const explicitSide = sideToken.kind === 'word' && TRIM_SIDES.has(sideToken.upper);
  if (explicitSide) side = (p.next() as Token & { kind: 'word' }).upper as TrimSide;
  let characters: (Parsed & { sort: 'value' }) | null = null;
  let operand: Parsed & { sort: 'value' };
  if (p.isWord('FROM')) {
    p.next();
    operand = valueArg(p);
  } else {
    const first = valueArg(p);
    if (p.isWord('FROM')) {
      p.next();
      characters = first;
      operand = valueArg(p);
    } else if (explicitSide) {
      throw invalidWhere(`TRIM(${side} ...) needs FROM at position ${p.peek().at + 1}`);
    } else operand = first;
  }
  p.expectSymbol(')');
  const node: ValueExpr = { type: 'trim', side, characters: characters?.node ?? null, operand: operand.node };
  return { sort: 'value', node, depth: Math.max(operand.depth, characters?.depth ?? 0) + 1 };
}

function substring(p: WhereParser): Parsed {
  p.expectSymbol('(');
  const args = [valueArg(p)];
  if (p.isWord('FROM')) {
    p.next();
    args.push(valueArg(p));
    if (p.isWord('FOR')) {
      p.next();
      args.push(valueArg(p));
    }
  } else {
    p.expectSymbol(',');
    args.push(valueArg(p));
    if (p.isSymbol(',')) {
      p.next();
      args.push(valueArg(p));
    }
  }
  p.expectSymbol(')');
  const node: ValueExpr = { type: 'call', name: 'SUBSTRING', args: args.map((a) => a.node) };
  return { sort: 'value', node, depth: Math.max(...args.map((a) => a.depth)) + 1 };
}

function position(p: WhereParser): Parsed {
  p.expectSymbol('(');
  const needle = valueArg(p);
  if (p.isSymbol(',')) p.next();
  else p.expectWord('IN');
  const haystack = valueArg(p);
  p.expectSymbol(')');
  const node: ValueExpr = { type: 'call', name: 'POSITION', args: [needle.node, haystack.node] };
  return { sort: 'value', node, depth: Math.max(needle.depth, haystack.depth) + 1 };
}
