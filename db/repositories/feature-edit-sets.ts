/**
 * Feature writes of many rows at once, for append: object ids drawn from the layer's sequence in one
 * statement, and adds and updates as one statement per set of rows writing the same columns, the
 * rows passed as one JSON parameter read by `json_to_recordset`. Each value reaches its column as the
 * row-by-row writes of feature-edits.ts send it (its text cast to the column's type), so the database
 * refuses exactly what it refuses there. Table and column names come only from checked ids.
 */
import { type SQL, sql } from 'drizzle-orm';
import { internalError } from '../../lib/errors.js';
import type { BoundValue, EditTransaction, StoredShape } from './feature-edits.js';
import { boxLiteral } from './feature-tables.js';

const TABLE = /^f_[a-z0-9]{32}_\d{1,3}$/;
const COLUMN = /^a_\d{1,4}$/;
const SQL_TYPES = new Set([
  'integer',
  'smallint',
  'bigint',
  'double precision',
  'real',
  'text',
  'timestamptz',
  'date',
  'time',
]);

function ident(name: string, pattern: RegExp): SQL {
  if (!pattern.test(name)) throw internalError('Unable to complete operation.', ['Invalid identifier.']);
  return sql.raw(`"${name}"`);
}

function sqlType(type: string): SQL {
  if (!SQL_TYPES.has(type)) throw internalError('Unable to complete operation.', ['Invalid column type.']);
  return sql.raw(type);
}

/** One row of a set write: its object id, column values and shape (null: none; undefined: kept). */
export interface FeatureRow {
  objectId: number;
  values: readonly BoundValue[];
  geometry?: StoredShape | null;
}

/**
 * `n` new object ids from the layer's sequence, ascending. The sequence must have been brought past
 * the table's ids (syncObjectIdSequence) under the layer lock.
 */
export async function allocateObjectIds(
  tx: EditTransaction,
  tableName: string,
  n: number,
): Promise<number[]> {
  if (n === 0) return [];
  ident(`${tableName}_oidseq`, /^f_[a-z0-9]{32}_\d{1,3}_oidseq$/);
  const rows = await tx.rows<{ id: number | string }>(
    sql`select nextval(${`"${tableName}_oidseq"`}::regclass) as id from generate_series(1, ${n}::integer)`,
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/**
 * Hands ids from `firstId` on out again: the ids of a set insert the database refused, so the rows
 * then written one by one get the ids they would have had. Only under the layer lock.
 */
export async function rewindObjectIds(
  tx: EditTransaction,
  tableName: string,
  firstId: number,
): Promise<void> {
  ident(`${tableName}_oidseq`, /^f_[a-z0-9]{32}_\d{1,3}_oidseq$/);
  await tx.rows(
    sql`select setval(${`"${tableName}_oidseq"`}::regclass, greatest(${firstId - 1}::bigint, 1), ${firstId > 1})`,
  );
}

/** The rows grouped by the columns they write (and, for updates, whether they write a shape). */
function bySignature(rows: readonly FeatureRow[], withShape: boolean): FeatureRow[][] {
  const groups = new Map<string, FeatureRow[]>();
  for (const row of rows) {
    const key =
      row.values.map((v) => `${v.column}:${v.sqlType}`).join(',') +
      (withShape ? `|${row.geometry ? 'shape' : ''}` : '');
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()];
}

const text = (v: string | number | null) => (v === null ? null : String(v));

/** The rows as a JSON array of records `{o, c0…, s, b}`, each value as text. */
function recordsOf(rows: readonly FeatureRow[], shape: boolean): string {
  return JSON.stringify(
    rows.map((row) => {
      const record: Record<string, string | number | null> = { o: row.objectId };
      row.values.forEach((v, i) => {
        record[`c${i}`] = text(v.value);
      });
      if (shape) {
        record.s = row.geometry ? row.geometry.shape : null;
        record.b = row.geometry ? boxLiteral(row.geometry.bounds) : null;
      }
      return record;
    }),
  );
}

function recordType(values: readonly BoundValue[], shape: boolean): SQL {
  const columns = [
    'o integer',
    ...values.map((_, i) => `c${i} text`),
    ...(shape ? ['s text', 'b text'] : []),
  ];
  return sql.raw(`r(${columns.join(', ')})`);
}

/** Inserts the rows, one statement for each set of rows writing the same columns. */
export async function insertFeatures(
  tx: EditTransaction,
  tableName: string,
  rows: readonly FeatureRow[],
): Promise<void> {
  const t = ident(tableName, TABLE);
  for (const group of bySignature(rows, false)) {
    const values = group[0].values;
    const names = [
      sql.raw('"objectid"'),
      ...values.map((v) => ident(v.column, COLUMN)),
      sql.raw('"shape"'),
      sql.raw('"bbox"'),
    ];
    const cells = [
      sql.raw('r.o'),
      ...values.map((v, i) => sql`${sql.raw(`r.c${i}`)}::${sqlType(v.sqlType)}`),
      sql.raw('r.s'),
      sql.raw('r.b::box'),
    ];
    await tx.rows(
      sql`insert into ${t} (${sql.join(names, sql`, `)})
          select ${sql.join(cells, sql`, `)} from json_to_recordset(${recordsOf(group, true)}::json) as ${recordType(values, true)}`,
    );
  }
}

/** Updates the rows by object id, one statement for each set of rows writing the same columns. */
export async function updateFeatures(
  tx: EditTransaction,
  tableName: string,
  rows: readonly FeatureRow[],
): Promise<void> {
  const t = ident(tableName, TABLE);
  for (const group of bySignature(rows, true)) {
    const values = group[0].values;
    const shape = Boolean(group[0].geometry);
    const sets = values.map(
      (v, i) => sql`${ident(v.column, COLUMN)} = ${sql.raw(`r.c${i}`)}::${sqlType(v.sqlType)}`,
    );
    if (shape) sets.push(sql.raw('"shape" = r.s'), sql.raw('"bbox" = r.b::box'));
    if (sets.length === 0) continue;
    await tx.rows(
      sql`update ${t} set ${sql.join(sets, sql`, `)}
          from json_to_recordset(${recordsOf(group, shape)}::json) as ${recordType(values, shape)}
          where ${t}."objectid" = r.o`,
    );
  }
}
