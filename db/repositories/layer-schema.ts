/**
 * Schema changes of hosted layers (the admin API's add/update/deleteFromDefinition), applied in one
 * transaction per request: the layers' rows are locked, the table changes run (PostgreSQL DDL is
 * transactional), the new resources and column maps are written, and the service's definition and
 * modified time follow. Any failure leaves every table and resource as it was.
 */
import { sql } from 'drizzle-orm';
import { badRequest, internalError } from '../../lib/errors.js';
import type { SchemaOp } from '../../lib/service/definition-changes.js';
import { type EditTransaction, lockLayer } from './feature-edits.js';
import { isPartitionedTable, unpartitionFeatureTable } from './feature-table-unpartition.js';

export interface LayerSchemaChange {
  layerId: number;
  tableName: string;
  definition: Record<string, unknown>;
  columns: { name: string; column: string }[];
  ops: SchemaOp[];
}

const TABLE = /^f_[a-z0-9]{32}_\d{1,3}$/;
const COLUMN = /^a_\d{1,4}$/;
const INDEX = /^f_[a-z0-9]{32}_\d{1,3}_ix_[0-9a-f]{8}$/;
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

function ident(name: string, pattern: RegExp) {
  if (!pattern.test(name)) throw internalError('Unable to complete operation.', ['Invalid identifier.']);
  return sql.raw(`"${name}"`);
}

async function applyOp(
  tx: EditTransaction,
  serviceItemId: string,
  layerId: number,
  table: string,
  op: SchemaOp,
  owner: string,
  now: number,
): Promise<void> {
  const t = ident(table, TABLE);
  switch (op.kind) {
    case 'addColumn':
      if (!SQL_TYPES.has(op.sqlType))
        throw internalError('Unable to complete operation.', ['Invalid column type.']);
      await tx.rows(sql`alter table ${t} add column ${ident(op.column, COLUMN)} ${sql.raw(op.sqlType)}`);
      return;
    case 'dropColumn':
      await tx.rows(sql`alter table ${t} drop column if exists ${ident(op.column, COLUMN)}`);
      return;
    case 'fillTracking': {
      const value =
        op.value === 'now' ? sql`${new Date(now).toISOString()}::timestamptz` : sql`${owner}::text`;
      await tx.rows(sql`update ${t} set ${ident(op.column, COLUMN)} = ${value}`);
      return;
    }
    case 'notNull': {
      const c = ident(op.column, COLUMN);
      if (!op.required) {
        await tx.rows(sql`alter table ${t} alter column ${c} drop not null`);
        return;
      }
      const nulls = await tx.rows<{ n: string | number }>(
        sql`select count(*) as n from ${t} where ${c} is null`,
      );
      const n = Number(nulls[0]?.n ?? 0);
      if (n > 0)
        throw badRequest('Unable to change the definition.', [
          `'${op.field}' cannot be made required: ${n} feature(s) have no value in it.`,
        ]);
      await tx.rows(sql`alter table ${t} alter column ${c} set not null`);
      return;
    }
    case 'createIndex': {
      const columns = sql.join(
        op.columns.map((c) => sql`${ident(c, COLUMN)}${sql.raw(op.descending ? ' desc' : '')}`),
        sql`, `,
      );
      // A unique index over values that repeat cannot be built: say so rather than a database error.
      if (op.unique) {
        const cols = op.columns.map((c) => ident(c, COLUMN));
        // As the index will: rows with a null in any of its fields never conflict.
        const dup = await tx.rows<{ n: string | number }>(
          sql`select count(*) as n from (select 1 from ${t}
                where ${sql.join(
                  cols.map((c) => sql`${c} is not null`),
                  sql` and `,
                )}
                group by ${sql.join(cols, sql`, `)} having count(*) > 1) as d`,
        );
        if (Number(dup[0]?.n ?? 0) > 0)
          throw badRequest('Unable to add to definition.', [
            'A unique index cannot be built: some features share the same values in its fields.',
          ]);
        // A table loaded in parts takes no unique index without the object id, which a layer's index
        // never holds: it becomes one table first. Other indexes are built on the parts through it.
        if (await isPartitionedTable(tx, table)) await unpartitionFeatureTable(tx, table);
      }
      await tx.rows(
        sql`create ${sql.raw(op.unique ? 'unique ' : '')}index ${ident(op.name, INDEX)} on ${t} (${columns})`,
      );
      return;
    }
    case 'dropIndex':
      await tx.rows(sql`drop index if exists ${ident(op.name, INDEX)}`);
      return;
    case 'noAttachments': {
      const rows = await tx.rows<{ n: string | number }>(
        sql`select count(*) as n from feature_attachments
            where service_item_id = ${serviceItemId} and layer_id = ${layerId}`,
      );
      if (Number(rows[0]?.n ?? 0) > 0)
        throw badRequest('Unable to update definition.', [
          'hasAttachments cannot be turned off while features have attachments; delete them first.',
        ]);
      return;
    }
  }
}

/**
 * Applies the changes of every layer a request touches, and merges `serviceChanges` into the service's
 * definition, inside the caller's transaction (a job marks itself Completed in the same one): all or
 * nothing. `owner` fills the creator and editor of features that gain tracking fields.
 */
export async function applySchemaChanges(
  tx: EditTransaction,
  serviceItemId: string,
  changes: readonly LayerSchemaChange[],
  serviceChanges: Record<string, unknown>,
  owner: string,
  now: number,
): Promise<void> {
  for (const change of changes) {
    if (!(await lockLayer(tx, serviceItemId, change.layerId)))
      throw badRequest('Unable to change the definition.', [`Layer ${change.layerId} does not exist.`]);
  }
  for (const change of changes) {
    for (const op of change.ops)
      await applyOp(tx, serviceItemId, change.layerId, change.tableName, op, owner, now);
    await tx.rows(
      sql`update hosted_layers set definition = ${JSON.stringify(change.definition)}::jsonb,
            columns = ${JSON.stringify(change.columns)}::jsonb
          where service_item_id = ${serviceItemId} and layer_id = ${change.layerId}`,
    );
  }
  await tx.rows(
    sql`update hosted_services set definition = definition || ${JSON.stringify(serviceChanges)}::jsonb,
          modified = ${now}
        where service_item_id = ${serviceItemId}`,
  );
}
