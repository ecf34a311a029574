import { invalidWhere } from './query-errors.js';
import { fragment, raw, type SqlFragment } from './sql-chunks.js';
import type { CastType, CurrentValue, DatePart, ValueExpr } from './where-ast.js';
import type { Compiled, Kind } from './where-values.js';

/**
 * Conversions between value families: CAST, EXTRACT, CURRENT_* and the start of a day. Each
 * either compiles to SQL that cannot fail on any stored value, or is refused at compile time:
 * a where clause should never turn into a database error halfway through a scan.
 */

/** `a number`, `an interval`: a value family named in a message. */
export const withArticle = (kind: Kind): string => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;

/** The instant a calendar day starts, in UTC. */
export const instantOfDay = (day: SqlFragment): SqlFragment =>
  fragment('((', day, ")::timestamp AT TIME ZONE 'UTC')");

export function current(which: CurrentValue): Compiled {
  // Hosted layers keep dates in UTC, so "today" is the UTC day, not the database session's.
  if (which === 'CURRENT_DATE')
    return { sql: raw("(CURRENT_TIMESTAMP AT TIME ZONE 'UTC')::date"), kind: 'date' };
  if (which === 'CURRENT_TIME')
    return { sql: raw("(CURRENT_TIMESTAMP AT TIME ZONE 'UTC')::time"), kind: 'time' };
  return { sql: raw('CURRENT_TIMESTAMP'), kind: 'timestamp' };
}

const TIME_OF_DAY_PARTS = new Set<DatePart>(['HOUR', 'MINUTE', 'SECOND']);

/** Parts of instants are taken in UTC; a date's time parts are 0; a time has no calendar parts. */
export function extractPart(part: DatePart, operand: Compiled): Compiled {
  if (operand.kind === 'time' && !TIME_OF_DAY_PARTS.has(part)) {
    throw invalidWhere(`EXTRACT(${part} ...) needs a date, not a time of day`);
  }
  const source =
    operand.kind === 'timestamp'
      ? fragment('(', operand.sql, ") AT TIME ZONE 'UTC'")
      : operand.kind === 'date'
        ? fragment('(', operand.sql, ')::timestamp')
        : operand.sql;
  return { sql: fragment(`EXTRACT(${part} FROM `, source, ')'), kind: 'number' };
}

/** A string literal being cast is converted here, so a bad one is a 400 rather than a database error. */
export function literalCastTarget(operand: ValueExpr, to: CastType): Kind | undefined {
  if (operand.type !== 'string') return undefined;
  if (to === 'INT' || to === 'FLOAT') return 'number';
  if (to === 'DATE') return 'date';
  if (to === 'TIMESTAMP') return 'timestamp';
  return undefined;
}

/** Text that PostgreSQL's numeric input accepts; anything else casts to NULL instead of failing. */
const NUMERIC_TEXT = "'^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?\\s*$'";

const numericOf = (c: Compiled): SqlFragment =>
  c.kind === 'string'
    ? fragment('(CASE WHEN (', c.sql, `) ~ ${NUMERIC_TEXT} THEN (`, c.sql, ')::numeric END)')
    : fragment('(', c.sql, ')::numeric');

export function castTo(c: Compiled, to: CastType): Compiled {
  const refuse = (): never => {
    throw invalidWhere(`CAST of ${withArticle(c.kind)} value to ${to} is not supported`);
  };
  if (c.kind === 'null') return { sql: raw('NULL'), kind: 'null' };
  switch (to) {
    case 'INT':
      if (c.kind !== 'number' && c.kind !== 'string') refuse();
      return { sql: fragment('trunc(', numericOf(c), ')'), kind: 'number' };
    case 'FLOAT':
      if (c.kind !== 'number' && c.kind !== 'string') refuse();
      return { sql: fragment('(', numericOf(c), ')::double precision'), kind: 'number' };
    case 'CHAR':
      return { sql: fragment('(', c.sql, ')::text'), kind: 'string' };
    case 'DATE':
      if (c.kind === 'date') return c;
      if (c.kind === 'timestamp')
        return { sql: fragment('((', c.sql, ") AT TIME ZONE 'UTC')::date"), kind: 'date' };
      return refuse();
    case 'TIMESTAMP':
      if (c.kind === 'timestamp') return c;
      if (c.kind === 'date') return { sql: instantOfDay(c.sql), kind: 'timestamp' };
      return refuse();
  }
}
