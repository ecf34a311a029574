import type { FieldCatalog } from './field-catalog.js';
import { FIELD_STORAGE, type ValueKind } from './field-types.js';
import { invalidWhere } from './query-errors.js';
import { fragment, identifier, raw, type SqlFragment, typedParam } from './sql-chunks.js';
import type { ValueExpr } from './where-ast.js';
import { castTo, current, extractPart, instantOfDay, literalCastTarget, withArticle } from './where-casts.js';
import { type ArgKind, argKindAt, FUNCTIONS } from './where-functions.js';
import { parseDateText, timeLiteral } from './where-literals.js';

/**
 * Compiles value expressions to PostgreSQL with their value family. Every literal becomes a typed
 * parameter (`$n::type`), so PostgreSQL never infers a parameter type from context and no value
 * is ever spliced into the text. Instants are compared in UTC whatever the session time zone is.
 */
export type Kind = ValueKind | 'null' | 'interval';

export interface Compiled {
  sql: SqlFragment;
  kind: Kind;
  /** Set for a calendar-day literal, so a comparison with an instant can use the day's bounds. */
  literalDay?: string;
}

/** PostgreSQL allows 65535 parameters a statement; the rest of the statement needs a few. */
export const MAX_WHERE_PARAMS = 30_000;

export class ValueCompiler {
  private params = 0;
  constructor(private readonly fields: FieldCatalog) {}

  param(value: unknown, sqlType: string): SqlFragment {
    if (++this.params > MAX_WHERE_PARAMS)
      throw invalidWhere(`more than ${MAX_WHERE_PARAMS} values in the where clause`);
    return typedParam(value, sqlType);
  }

  /** Compiles `expr`, first turning a bare literal into the family `target` expects (`'5'` for a number field). */
  value(expr: ValueExpr, target?: Kind): Compiled {
    const e = target ? coerceLiteral(expr, target) : expr;
    switch (e.type) {
      case 'number':
        return { sql: this.number(e.value, e.text), kind: 'number' };
      case 'string':
        return { sql: this.param(e.value, 'text'), kind: 'string' };
      case 'null':
        return { sql: raw('NULL'), kind: 'null' };
      case 'date':
        return { sql: this.param(e.value, 'date'), kind: 'date', literalDay: e.value };
      case 'timestamp':
        return { sql: this.param(e.value, 'timestamptz'), kind: 'timestamp' };
      case 'time':
        return { sql: this.param(e.value, 'time'), kind: 'time' };
      case 'interval':
        return { sql: this.param(e.value, 'interval'), kind: 'interval' };
      case 'current':
        return current(e.value);
      case 'field':
        return this.field(e.name);
      case 'negate': {
        const operand = this.expect(this.value(e.operand), ['number', 'interval'], 'unary minus');
        if (operand.kind === 'null') return NULL_VALUE;
        return { sql: fragment('(-', operand.sql, ')'), kind: operand.kind };
      }
      case 'arithmetic': {
        const left = this.value(e.left);
        const right = this.value(
          e.right,
          isLiteral(e.right) && !isLiteral(e.left) ? arithmeticTarget(left.kind) : undefined,
        );
        return this.arithmetic(e.operator, left, right);
      }
      case 'call':
        return this.call(e);
      case 'extract': {
        const operand = this.expect(this.value(e.operand), ['timestamp', 'date', 'time'], 'EXTRACT');
        return operand.kind === 'null' ? NULL_VALUE : extractPart(e.part, operand);
      }
      case 'trim': {
        const operand = this.expect(this.value(e.operand), ['string'], 'TRIM');
        const chars = e.characters ? this.expect(this.value(e.characters), ['string'], 'TRIM').sql : null;
        const sql = chars
          ? fragment(`trim(${e.side} `, chars, ' FROM ', operand.sql, ')')
          : fragment(`trim(${e.side} FROM `, operand.sql, ')');
        return { sql, kind: 'string' };
      }
      case 'cast':
        return castTo(this.value(e.operand, literalCastTarget(e.operand, e.to)), e.to);
      case 'aggregate':
        return this.aggregate(e);
    }
  }

  /** Sample STDDEV and VAR, as outStatistics computes them; COUNT counts non-null values. */
  private aggregate(e: ValueExpr & { type: 'aggregate' }): Compiled {
    if (!e.operand) return { sql: raw('count(*)'), kind: 'number' };
    const numeric = e.fn === 'AVG' || e.fn === 'SUM' || e.fn === 'STDDEV' || e.fn === 'VAR';
    const operand = numeric ? this.expect(this.value(e.operand), ['number'], e.fn) : this.value(e.operand);
    // Over NULL alone: no values to count, and no value to sum, average or pick (PostgreSQL would not
    // know which of its sum, min and max functions an untyped NULL calls for).
    if (operand.kind === 'null') return e.fn === 'COUNT' ? { sql: raw('0'), kind: 'number' } : NULL_VALUE;
    const pg = {
      AVG: 'avg',
      COUNT: 'count',
      MAX: 'max',
      MIN: 'min',
      STDDEV: 'stddev_samp',
      SUM: 'sum',
      VAR: 'var_samp',
    }[e.fn];
    const cast = numeric ? '::double precision' : '';
    return {
      sql: fragment(`${pg}(`, operand.sql, `)${cast}`),
      kind: e.fn === 'COUNT' ? 'number' : operand.kind,
    };
  }

  private number(value: number, text: string): SqlFragment {
    if (!Number.isFinite(value)) throw invalidWhere(`the number ${text} is out of range`);
    if (!/^-?\d+$/.test(text)) return this.param(value, 'double precision');
    // Integers beyond 2^53 travel as text so BigInteger fields compare exactly.
    const big = BigInt(text);
    const fitsBigint = big >= -(2n ** 63n) && big < 2n ** 63n;
    return this.param(Number.isSafeInteger(value) ? value : text, fitsBigint ? 'bigint' : 'numeric');
  }

  field(name: string): Compiled {
    const field = this.fields.lookup(name);
    if (!field) throw invalidWhere(`unknown field '${name}'`);
    const storage = FIELD_STORAGE[field.type];
    if (storage.kind === 'geometry')
      throw invalidWhere(`the geometry field '${field.name}' cannot be used in a where clause`);
    return { sql: identifier(field.column), kind: storage.kind };
  }

  expect(c: Compiled, kinds: Kind[], where: string): Compiled {
    if (c.kind === 'null' || kinds.includes(c.kind)) return c;
    throw invalidWhere(`${where} does not accept ${withArticle(c.kind)} value`);
  }

  private arithmetic(op: '+' | '-' | '*' | '/', l: Compiled, r: Compiled): Compiled {
    const bin = (kind: Kind, left = l.sql, right = r.sql): Compiled => ({
      sql: fragment('(', left, ` ${op} `, right, ')'),
      kind,
    });
    const k = `${l.kind} ${op} ${r.kind}`;
    // Arithmetic on NULL is NULL. Written out as such, since PostgreSQL cannot always choose an
    // operator for an untyped NULL (`NULL + NULL`, `timestamp - NULL`: which of its minus operators?).
    if (l.kind === 'null' || r.kind === 'null') return NULL_VALUE;
    // A zero divisor yields NULL (the row does not match) rather than failing the whole query.
    if (l.kind === 'number' && r.kind === 'number') {
      return op === '/' ? bin('number', l.sql, fragment('NULLIF(', r.sql, ', 0)')) : bin('number');
    }
    if (k === 'timestamp + interval' || k === 'timestamp - interval') return bin('timestamp');
    if (k === 'interval + timestamp') return bin('timestamp');
    if (k === 'date + interval' || k === 'date - interval') return bin('timestamp', instantOfDay(l.sql));
    // A bare number added to a date or an instant counts days, as in most SQL dialects.
    if (k === 'timestamp + number' || k === 'timestamp - number') {
      return bin('timestamp', l.sql, fragment('((', r.sql, ") * interval '1 day')"));
    }
    if (k === 'date + number' || k === 'date - number')
      return bin('date', l.sql, fragment('(', r.sql, ')::integer'));
    if (k === 'timestamp - timestamp') return bin('interval');
    if (k === 'date - date') return bin('number');
    if (k === 'interval + interval' || k === 'interval - interval') return bin('interval');
    if (k === 'interval * number' || k === 'interval / number') return bin('interval');
    throw invalidWhere(`cannot apply '${op}' to ${l.kind} and ${r.kind} values`);
  }

  private call(e: ValueExpr & { type: 'call' }): Compiled {
    const spec = FUNCTIONS[e.name];
    // Non-literal arguments first: for COALESCE and NULLIF the first of them sets the family of
    // the literals. Each argument is compiled once, so nested calls stay linear.
    const compiled: Array<Compiled | undefined> = e.args.map((arg, i) =>
      isLiteral(arg) ? undefined : this.checkArg(this.value(arg), argKindAt(spec, i), e.name),
    );
    const sameKind = compiled.find((c) => c !== undefined)?.kind;
    const args = e.args.map((arg, i) => {
      const done = compiled[i];
      if (done) return done;
      const want = argKindAt(spec, i);
      if (want === 'any') return this.value(arg);
      return this.checkArg(this.value(arg, want === 'same' ? sameKind : want), want, e.name);
    });
    let result: Kind = spec.result === 'same' ? 'null' : spec.result;
    if (spec.result === 'same') {
      const kinds = new Set(args.map((a) => a.kind).filter((k) => k !== 'null'));
      if (kinds.size > 1) throw invalidWhere(`${e.name} arguments mix ${[...kinds].join(' and ')} values`);
      const first = [...kinds][0];
      // Every argument NULL: so is COALESCE or NULLIF of them, and PostgreSQL would call it text.
      if (first === undefined) return NULL_VALUE;
      result = first;
    }
    return { sql: spec.render(args.map((a) => a.sql)), kind: result };
  }

  private checkArg(c: Compiled, want: ArgKind, fn: string): Compiled {
    return want === 'any' || want === 'same' ? c : this.expect(c, [want], fn);
  }
}

/** NULL of no family: it compares, as NULL, with anything. */
const NULL_VALUE: Compiled = { sql: raw('NULL'), kind: 'null' };

export const isLiteral = (e: ValueExpr): boolean =>
  e.type === 'number' || e.type === 'string' || e.type === 'null';

/** A literal beside a date or instant in arithmetic is a number of days, not a date. */
const arithmeticTarget = (kind: Kind): Kind | undefined =>
  kind === 'timestamp' || kind === 'date' ? 'number' : kind === 'null' ? undefined : kind;

/**
 * Turns a string or number literal into the family it is compared with: `'12'` against a number
 * field is the number 12, `12345` against a text field is the text '12345', a date string or an
 * epoch-milliseconds number against a Date field is that instant.
 */
export function coerceLiteral(e: ValueExpr, target: Kind): ValueExpr {
  if (e.type === 'string') {
    if (target === 'number') {
      const n = Number(e.value.trim());
      if (e.value.trim() === '' || !Number.isFinite(n)) throw invalidWhere(`'${e.value}' is not a number`);
      return { type: 'number', value: n, text: e.value.trim() };
    }
    if (target === 'timestamp' || target === 'date') {
      const parsed = parseDateText(e.value);
      if (!parsed)
        throw invalidWhere(
          `'${e.value}' is not a date; use DATE 'yyyy-mm-dd' or TIMESTAMP 'yyyy-mm-dd hh:mm:ss'`,
        );
      return parsed;
    }
    if (target === 'time') return { type: 'time', value: timeLiteral(e.value) };
  }
  if (e.type === 'number') {
    if (target === 'string') return { type: 'string', value: e.text };
    if (target === 'timestamp') {
      const ms = Number(e.text);
      const date = new Date(ms);
      if (!Number.isInteger(ms) || Number.isNaN(date.getTime()))
        throw invalidWhere(`${e.text} is not a time in epoch milliseconds`);
      return { type: 'timestamp', value: date.toISOString() };
    }
  }
  return e;
}
