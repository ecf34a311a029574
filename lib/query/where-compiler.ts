import type { FieldCatalog } from './field-catalog.js';
import { invalidWhere } from './query-errors.js';
import { fragment, join, raw, type SqlFragment } from './sql-chunks.js';
import type { ComparisonOperator, Condition, ValueExpr } from './where-ast.js';
import { instantOfDay, withArticle } from './where-casts.js';
import { type Compiled, isLiteral, type Kind, ValueCompiler } from './where-values.js';

/**
 * Compiles a parsed where clause to a PostgreSQL boolean expression over the layer's columns.
 *
 * Decisions, where ArcGIS leaves room:
 * - Unknown fields and type mismatches are 400 errors here, never database errors later.
 * - A literal takes the family of what it is compared with: `POP = '12'` compares numbers,
 *   `ZIP = 12345` compares text, `DateField > 1577836800000` reads epoch milliseconds.
 * - A calendar day (DATE literal, date string, CURRENT_DATE) compared with a Date field means the
 *   whole UTC day: `d = DATE '2020-01-01'` matches any time that day, `d > DATE '2020-01-01'`
 *   starts the next day. It compiles to range tests, so an index on the column still serves.
 * - LIKE works on text and, as on the databases ArcGIS fronts, on numbers (compared as text);
 *   on dates it is refused. Without ESCAPE no character escapes (PostgreSQL's default backslash
 *   escape is switched off), as in SQL-92. Matching is case-sensitive, as on PostgreSQL-backed
 *   ArcGIS Enterprise hosted layers.
 */
export function compileWhere(where: Condition, fields: FieldCatalog): SqlFragment {
  return new ConditionCompiler(new ValueCompiler(fields)).condition(where);
}

const MIRROR: Record<ComparisonOperator, ComparisonOperator> = {
  '=': '=',
  '<>': '<>',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

class ConditionCompiler {
  constructor(private readonly v: ValueCompiler) {}

  condition(c: Condition): SqlFragment {
    switch (c.type) {
      case 'and':
      case 'or':
        return fragment(
          '(',
          join(
            c.operands.map((o) => this.condition(o)),
            c.type === 'and' ? ' AND ' : ' OR ',
          ),
          ')',
        );
      case 'not':
        return fragment('(NOT ', this.condition(c.operand), ')');
      case 'compare':
        return this.compare(c.operator, c.left, c.right);
      case 'isNull':
        return fragment('(', this.v.value(c.operand).sql, c.negated ? ' IS NOT NULL)' : ' IS NULL)');
      case 'like':
        return this.like(c);
      case 'in':
        return this.inList(c);
      case 'between':
        return this.between(c);
    }
  }

  /** Compiles both sides, giving a literal the family of the other side. */
  private pair(left: ValueExpr, right: ValueExpr): [Compiled, Compiled] {
    if (isLiteral(right) && !isLiteral(left)) {
      const l = this.v.value(left);
      return [l, this.v.value(right, l.kind)];
    }
    const r = this.v.value(right);
    return [this.v.value(left, r.kind), r];
  }

  private compare(op: ComparisonOperator, left: ValueExpr, right: ValueExpr): SqlFragment {
    const [l, r] = this.pair(left, right);
    if (l.kind === 'timestamp' && r.kind === 'date') return this.compareWithDay(op, l, r);
    if (l.kind === 'date' && r.kind === 'timestamp') return this.compareWithDay(MIRROR[op], r, l);
    assertComparable(l.kind, r.kind);
    return fragment('(', l.sql, ` ${op} `, r.sql, ')');
  }

  private compareWithDay(op: ComparisonOperator, instant: Compiled, day: Compiled): SqlFragment {
    const [start, end] = dayBounds(day, this.v);
    const t = instant.sql;
    switch (op) {
      case '=':
        return fragment('(', t, ' >= ', start, ' AND ', t, ' < ', end, ')');
      case '<>':
        return fragment('(', t, ' < ', start, ' OR ', t, ' >= ', end, ')');
      case '<':
        return fragment('(', t, ' < ', start, ')');
      case '<=':
        return fragment('(', t, ' < ', end, ')');
      case '>':
        return fragment('(', t, ' >= ', end, ')');
      case '>=':
        return fragment('(', t, ' >= ', start, ')');
    }
  }

  private like(c: Condition & { type: 'like' }): SqlFragment {
    const operand = this.v.value(c.operand);
    if (operand.kind !== 'string' && operand.kind !== 'number' && operand.kind !== 'null') {
      throw invalidWhere(`LIKE cannot match a ${operand.kind} value; compare it with = < > or BETWEEN`);
    }
    const text = operand.kind === 'number' ? fragment('(', operand.sql, ')::text') : operand.sql;
    const pattern = this.v.expect(this.v.value(c.pattern, 'string'), ['string'], 'LIKE');
    const escapeClause =
      c.escape === null ? raw(" ESCAPE '')") : fragment(' ESCAPE ', this.v.param(c.escape, 'text'), ')');
    return fragment('(', text, c.negated ? ' NOT LIKE ' : ' LIKE ', pattern.sql, escapeClause);
  }

  private inList(c: Condition & { type: 'in' }): SqlFragment {
    const value = this.v.value(c.operand);
    const items = c.list.map((item) => this.v.value(item, value.kind));
    const operand = asInstantBeside(value, items);
    for (const item of items) assertComparable(operand.kind, item.kind);
    if (operand.kind === 'timestamp' && items.some((i) => i.kind === 'date')) {
      // Days in the list each stand for their whole UTC day.
      const tests = items.map((i) =>
        i.kind === 'date'
          ? this.compareWithDay('=', operand, i)
          : fragment('(', operand.sql, ' = ', i.sql, ')'),
      );
      const any = fragment('(', join(tests, ' OR '), ')');
      return c.negated ? fragment('(NOT ', any, ')') : any;
    }
    const list = join(
      items.map((i) => i.sql),
      ', ',
    );
    return fragment('(', operand.sql, c.negated ? ' NOT IN (' : ' IN (', list, '))');
  }

  private between(c: Condition & { type: 'between' }): SqlFragment {
    const value = this.v.value(c.operand);
    const low = this.v.value(c.low, value.kind);
    const high = this.v.value(c.high, value.kind);
    const operand = asInstantBeside(value, [low, high]);
    assertComparable(operand.kind, low.kind);
    assertComparable(operand.kind, high.kind);
    if (operand.kind === 'timestamp' && (low.kind === 'date' || high.kind === 'date')) {
      const from = low.kind === 'date' ? dayBounds(low, this.v)[0] : low.sql;
      const to = high.kind === 'date' ? dayBounds(high, this.v)[1] : high.sql;
      const op = high.kind === 'date' ? ' < ' : ' <= ';
      const within = fragment('(', operand.sql, ' >= ', from, ' AND ', operand.sql, op, to, ')');
      return c.negated ? fragment('(NOT ', within, ')') : within;
    }
    return fragment(
      '(',
      operand.sql,
      c.negated ? ' NOT BETWEEN ' : ' BETWEEN ',
      low.sql,
      ' AND ',
      high.sql,
      ')',
    );
  }
}

/** Start of the day and start of the next day, as instants; literal days are computed here. */
function dayBounds(day: Compiled, v: ValueCompiler): [SqlFragment, SqlFragment] {
  if (day.literalDay) {
    const start = `${day.literalDay}T00:00:00.000Z`;
    const next = new Date(Date.parse(start) + 86_400_000).toISOString();
    return [v.param(start, 'timestamptz'), v.param(next, 'timestamptz')];
  }
  return [instantOfDay(day.sql), instantOfDay(fragment('(', day.sql, ' + 1)'))];
}

/**
 * A calendar day compared with instants becomes the instant it starts in UTC; left to PostgreSQL,
 * the conversion would use the session time zone.
 */
function asInstantBeside(value: Compiled, others: Compiled[]): Compiled {
  if (value.kind !== 'date' || !others.some((o) => o.kind === 'timestamp')) return value;
  return { sql: instantOfDay(value.sql), kind: 'timestamp' };
}

function assertComparable(a: Kind, b: Kind): void {
  if (a === b || a === 'null' || b === 'null') return;
  if ((a === 'date' && b === 'timestamp') || (a === 'timestamp' && b === 'date')) return;
  throw invalidWhere(`cannot compare ${withArticle(a)} value with ${withArticle(b)} value`);
}
