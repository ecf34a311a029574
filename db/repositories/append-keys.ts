/**
 * The features an upsert updates: for each key text, the object id of the feature whose matching
 * column holds it. Keys are compared as text, so a number read from a CSV matches an integer column.
 */
import { type SQL, sql } from 'drizzle-orm';
import { internalError } from '../../lib/errors.js';
import type { EditTransaction } from './feature-edits.js';

const TABLE = /^f_[a-z0-9]{32}_\d{1,3}$/;
const COLUMN = /^(a_\d{1,4}|objectid)$/;
const CHUNK = 1000;

function ident(name: string, pattern: RegExp): SQL {
  if (!pattern.test(name)) throw internalError('Unable to complete operation.', ['Invalid identifier.']);
  return sql.raw(`"${name}"`);
}

export async function objectIdsByKey(
  db: Pick<EditTransaction, 'rows'>,
  table: string,
  column: string,
  keys: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const t = ident(table, TABLE);
  const c = ident(column, COLUMN);
  for (let from = 0; from < keys.length; from += CHUNK) {
    const list = sql.join(
      keys.slice(from, from + CHUNK).map((k) => sql`${k}`),
      sql`, `,
    );
    const rows = await db.rows<{ objectid: number | string; k: string }>(
      sql`select objectid, ${c}::text as k from ${t} where ${c}::text in (${list})`,
    );
    for (const r of rows) out.set(r.k, Number(r.objectid));
  }
  return out;
}
