/**
 * A database refusal of one edit (a unique index, a NOT NULL column, a value the column type cannot
 * hold) as the per-edit error ArcGIS reports, instead of an internal error for the whole request.
 * Anything else the database says (a lost connection, a deadlock) is not the edit's fault: null.
 */
import type { EditError } from './edit-errors.js';

export interface DatabaseErrorFacts {
  /** SQLSTATE, e.g. 23505. */
  code?: string;
  /** The column named by the server (postgres.js `column_name`, PGlite `column`). */
  column?: string;
}

export function databaseEditError(facts: DatabaseErrorFacts): EditError | null {
  const { code, column } = facts;
  if (!code) return null;
  const field = column ? `Field ${column}` : 'A field';
  switch (code) {
    case '23505':
      return {
        code: 1000,
        description: 'The value breaks a unique index of the layer: another feature holds it.',
      };
    case '23502':
      return { code: 1000, description: `${field} cannot be null.` };
    case '23514':
      return { code: 1000, description: 'A value breaks a check of the layer.' };
    case '22001':
      return { code: 1000, description: 'A value is longer than its field allows.' };
  }
  if (code.startsWith('22'))
    return { code: 1000, description: 'A value does not fit the type of its field.' };
  return null;
}

/** Reads SQLSTATE and column from a postgres.js or PGlite error, or from the error drizzle wraps. */
export function databaseErrorFacts(e: unknown): DatabaseErrorFacts {
  const own = e as { code?: unknown; column_name?: unknown; column?: unknown; cause?: unknown } | null;
  if (!own || typeof own !== 'object') return {};
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const facts = { code: text(own.code), column: text(own.column_name) ?? text(own.column) };
  if (facts.code && /^[0-9A-Z]{5}$/.test(facts.code)) return facts;
  return own.cause && own.cause !== e ? databaseErrorFacts(own.cause) : {};
}
