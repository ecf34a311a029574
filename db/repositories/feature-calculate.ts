/**
 * Whole-table changes of a feature layer inside an edit transaction: calculate (one UPDATE over the
 * rows a where clause selects) and truncate (every row and, with them, the object id sequence). Table
 * and column names come from checked ids only; values and expressions are compiled fragments.
 */
import { type SQL, sql } from 'drizzle-orm';
import { badRequest, internalError } from '../../lib/errors.js';
import type { Bounds } from '../../lib/geometry/types.js';
import { EXTENT_CORNERS, EXTENT_OF_ROWS } from '../../lib/query/extent-sql.js';
import type { SqlFragment } from '../../lib/query/sql-chunks.js';
import type { EditTransaction } from './feature-edits.js';
import { toSql } from './feature-query.js';

const TABLE = /^f_[a-z0-9]{32}_\d{1,3}$/;
const COLUMN = /^a_\d{1,4}$/;

function ident(name: string, pattern: RegExp): SQL {
  if (!pattern.test(name)) throw internalError('Unable to complete operation.', ['Invalid identifier.']);
  return sql.raw(`"${name}"`);
}

export interface CalculateSet {
  column: string;
  field: string;
  value: SqlFragment;
  maxLength?: number;
  /** Predicates over the new value, each true for a row that breaks the rule it describes. */
  rules?: readonly { when: SqlFragment; description: string }[];
}

export interface CalculateOutcome {
  count: number;
  /** The envelope of the updated features, null when none has a shape. */
  bounds: Bounds | null;
}

/**
 * Sets the columns on every row `where` selects (all rows without one); one statement. A value longer
 * than its field or a row that breaks one of a set's rules fails the whole calculate (the caller's
 * transaction is rolled back by the error).
 */
export async function calculateRows(
  tx: EditTransaction,
  tableName: string,
  sets: readonly CalculateSet[],
  where: SqlFragment | null,
): Promise<CalculateOutcome> {
  const t = ident(tableName, TABLE);
  const assignments = sql.join(
    sets.map((s) => sql`${ident(s.column, COLUMN)} = ${toSql(s.value)}`),
    sql`, `,
  );
  const checked = sets.filter((s) => s.maxLength);
  const lengths = checked.map(
    (s, i) => sql`, char_length(${ident(s.column, COLUMN)}) as ${sql.raw(`l${i}`)}`,
  );
  const maxima = checked.map((_, i) => sql`, max(${sql.raw(`l${i}`)}) as ${sql.raw(`m${i}`)}`);
  const rules = sets.flatMap((s) => (s.rules ?? []).map((rule) => ({ field: s.field, ...rule })));
  const breaks = rules.map((r, i) => sql`, (${toSql(r.when)}) as ${sql.raw(`b${i}`)}`);
  const broken = rules.map(
    (_, i) => sql`, count(*) filter (where ${sql.raw(`b${i}`)}) as ${sql.raw(`c${i}`)}`,
  );
  const filter = where ? sql` where ${toSql(where)}` : sql``;
  const rows = await tx.rows<Record<string, unknown>>(
    sql`with u as (update ${t} set ${assignments}${filter} returning "bbox"${sql.join(lengths, sql``)}${sql.join(breaks, sql``)})
        select x.*, ${sql.raw(EXTENT_CORNERS)} from (select count(*)::bigint as n, ${sql.raw(EXTENT_OF_ROWS)}${sql.join(maxima, sql``)}${sql.join(broken, sql``)} from u) as x`,
  );
  const r = rows[0] ?? {};
  checked.forEach((s, i) => {
    const longest = r[`m${i}`];
    if (longest !== null && longest !== undefined && Number(longest) > (s.maxLength ?? 0))
      throw badRequest('Unable to complete operation.', [
        `The value calculated for '${s.field}' is ${longest} characters long; the field holds ${s.maxLength}.`,
      ]);
  });
  rules.forEach((rule, i) => {
    const n = Number(r[`c${i}`] ?? 0);
    if (n > 0)
      throw badRequest('Unable to complete operation.', [
        `The value calculated for '${rule.field}' is ${rule.description} for ${n} feature(s).`,
      ]);
  });
  const b = [r.xmin, r.ymin, r.xmax, r.ymax];
  return {
    count: Number(r.n ?? 0),
    bounds: b.some((v) => v === null || v === undefined) ? null : (b.map(Number) as Bounds),
  };
}

/**
 * Removes every feature of the layer (or, with `attachmentsOnly`, only their attachments) and its
 * attachment rows; the object id sequence goes too, so the next feature added is 1 again.
 * Returns the object keys of the removed attachment files, to delete after commit.
 */
export async function truncateLayerRows(
  tx: EditTransaction,
  serviceItemId: string,
  layerId: number,
  tableName: string,
  attachmentsOnly: boolean,
): Promise<string[]> {
  const t = ident(tableName, TABLE);
  const removed = await tx.rows<{ object_key: string }>(
    sql`delete from feature_attachments where service_item_id = ${serviceItemId} and layer_id = ${layerId}
        returning object_key`,
  );
  if (!attachmentsOnly) {
    await tx.rows(sql`truncate table ${t}`);
    await tx.rows(
      sql`drop sequence if exists ${ident(`${tableName}_oidseq`, /^f_[a-z0-9]{32}_\d{1,3}_oidseq$/)}`,
    );
  }
  return removed.map((r) => r.object_key);
}
