/**
 * Feature edits in one transaction: the layer's row is locked first, so edits of one layer run one
 * after another and `max(objectid) + 1` is a safe next id. Values are bound parameters cast to their
 * column types; table and column names come only from checked ids (`f_<itemId>_<layer>`, `a_<n>`).
 */
import { type SQL, sql } from 'drizzle-orm';
import { internalError } from '../../lib/errors.js';
import type { Bounds } from '../../lib/geometry/types.js';
import { EXTENT_CORNERS, EXTENT_OF_ROWS } from '../../lib/query/extent-sql.js';
import type { DatabaseHandle } from '../client.js';
import { boxLiteral } from './feature-tables.js';

export interface BoundValue {
  column: string;
  sqlType: string;
  value: string | number | null;
}

export interface StoredShape {
  shape: string;
  bounds: Bounds;
}

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

const table = (name: string) => ident(name, TABLE);
const column = (name: string) => ident(name, COLUMN);

function bound(v: BoundValue): SQL {
  if (!SQL_TYPES.has(v.sqlType))
    throw internalError('Unable to complete operation.', ['Invalid column type.']);
  return v.value === null ? sql`null` : sql`${String(v.value)}::${sql.raw(v.sqlType)}`;
}

/** What a transaction offers the edit code: raw statements, and savepoints for edits that may fail alone. */
export interface EditTransaction {
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  savepoint<T>(work: (tx: EditTransaction) => Promise<T>): Promise<T>;
}

type Executor = {
  execute(query: SQL): Promise<unknown>;
  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T>;
};

function wrap(tx: Executor): EditTransaction {
  return {
    // postgres.js answers an array of rows, PGlite an object holding them.
    rows: async <T>(query: SQL) => {
      const result = (await tx.execute(query)) as T[] | { rows: T[] };
      return Array.isArray(result) ? result : result.rows;
    },
    savepoint: (work) => tx.transaction((inner) => work(wrap(inner))),
  };
}

export function inEditTransaction<T>(
  handle: DatabaseHandle,
  work: (tx: EditTransaction) => Promise<T>,
): Promise<T> {
  return (handle.db as unknown as Executor).transaction((tx) => work(wrap(tx)));
}

/** Locks the layer's row until the transaction ends and returns its count and resource JSON. */
export async function lockLayer(
  tx: EditTransaction,
  serviceItemId: string,
  layerId: number,
): Promise<{ featureCount: number; definition: Record<string, unknown> } | undefined> {
  const rows = await tx.rows<{
    feature_count: string | number;
    definition: Record<string, unknown> | string;
  }>(
    sql`select feature_count, definition from hosted_layers
        where service_item_id = ${serviceItemId} and layer_id = ${layerId} for update`,
  );
  const r = rows[0];
  if (!r) return undefined;
  const definition = typeof r.definition === 'string' ? JSON.parse(r.definition) : r.definition;
  return { featureCount: Number(r.feature_count), definition };
}

const sequence = (tableName: string) => ident(`${tableName}_oidseq`, /^f_[a-z0-9]{32}_\d{1,3}_oidseq$/);

/**
 * Brings the layer's object id sequence (made on first use, dropped with its table) past every id the
 * table holds, so ids are never handed out twice, not even those of deleted features or of adds a
 * rollback undid. Call it under the layer lock, before allocating.
 */
export async function syncObjectIdSequence(tx: EditTransaction, tableName: string): Promise<void> {
  const seq = sequence(tableName);
  await tx.rows(sql`create sequence if not exists ${seq} owned by ${table(tableName)}."objectid"`);
  await tx.rows(
    sql`select setval(${`"${tableName}_oidseq"`}::regclass, greatest(m, 1), m > 0)
        from (select greatest(
          (select coalesce(max("objectid"), 0) from ${table(tableName)}),
          (select case when is_called then last_value else 0 end from ${seq})) as m) as s`,
  );
}

export async function allocateObjectId(tx: EditTransaction, tableName: string): Promise<number> {
  sequence(tableName);
  const rows = await tx.rows<{ id: number | string }>(
    sql`select nextval(${`"${tableName}_oidseq"`}::regclass) as id`,
  );
  return Number(rows[0]?.id);
}

export async function insertFeature(
  tx: EditTransaction,
  tableName: string,
  objectId: number,
  values: readonly BoundValue[],
  geometry: StoredShape | null,
): Promise<void> {
  const names = [
    sql.raw('"objectid"'),
    ...values.map((v) => column(v.column)),
    sql.raw('"shape"'),
    sql.raw('"bbox"'),
  ];
  const params = [
    sql`${objectId}::integer`,
    ...values.map(bound),
    geometry ? sql`${geometry.shape}` : sql`null`,
    geometry ? sql`${boxLiteral(geometry.bounds)}::box` : sql`null`,
  ];
  await tx.rows(
    sql`insert into ${table(tableName)} (${sql.join(names, sql`, `)}) values (${sql.join(params, sql`, `)})`,
  );
}

export interface ExistingFeature {
  objectId: number;
  bounds: Bounds | null;
  creator: string | null;
}

/** The listed features that exist, with their bounds and (when the layer tracks it) their creator. */
export async function readFeatures(
  tx: EditTransaction,
  tableName: string,
  objectIds: readonly number[],
  creatorColumn?: string,
): Promise<Map<number, ExistingFeature>> {
  if (objectIds.length === 0) return new Map();
  const creator = creatorColumn ? sql`${column(creatorColumn)}::text` : sql`null::text`;
  const rows = await tx.rows<Record<string, unknown>>(
    sql`select "objectid" as oid, ${creator} as creator,
          ("bbox"[1])[0] as xmin, ("bbox"[1])[1] as ymin, ("bbox"[0])[0] as xmax, ("bbox"[0])[1] as ymax
        from ${table(tableName)} where "objectid" = any(${`{${objectIds.join(',')}}`}::integer[]) for update`,
  );
  const out = new Map<number, ExistingFeature>();
  for (const r of rows) {
    const b = [r.xmin, r.ymin, r.xmax, r.ymax];
    out.set(Number(r.oid), {
      objectId: Number(r.oid),
      bounds: b.some((v) => v === null || v === undefined) ? null : (b.map(Number) as Bounds),
      creator: r.creator === null || r.creator === undefined ? null : String(r.creator),
    });
  }
  return out;
}

export async function updateFeature(
  tx: EditTransaction,
  tableName: string,
  objectId: number,
  values: readonly BoundValue[],
  geometry: StoredShape | undefined,
): Promise<void> {
  const sets = values.map((v) => sql`${column(v.column)} = ${bound(v)}`);
  if (geometry)
    sets.push(sql`"shape" = ${geometry.shape}`, sql`"bbox" = ${boxLiteral(geometry.bounds)}::box`);
  if (sets.length === 0) return;
  await tx.rows(
    sql`update ${table(tableName)} set ${sql.join(sets, sql`, `)} where "objectid" = ${objectId}`,
  );
}

export async function deleteFeatureRows(
  tx: EditTransaction,
  tableName: string,
  objectIds: readonly number[],
): Promise<void> {
  if (objectIds.length === 0) return;
  await tx.rows(
    sql`delete from ${table(tableName)} where "objectid" = any(${`{${objectIds.join(',')}}`}::integer[])`,
  );
}

export interface TableSummary {
  count: number;
  extent: Bounds | null;
}

/** Count and extent of a table, inside the transaction that just changed it. */
export async function summarizeTable(tx: EditTransaction, tableName: string): Promise<TableSummary> {
  const rows = await tx.rows<Record<string, unknown>>(
    sql`select n, ${sql.raw(EXTENT_CORNERS)}
        from (select count(*)::bigint as n, ${sql.raw(EXTENT_OF_ROWS)} from ${table(tableName)}) as x`,
  );
  const r = rows[0] ?? {};
  const b = [r.xmin, r.ymin, r.xmax, r.ymax];
  return {
    count: Number(r.n ?? 0),
    extent: b.some((v) => v === null || v === undefined) ? null : (b.map(Number) as Bounds),
  };
}

export async function writeLayerState(
  tx: EditTransaction,
  serviceItemId: string,
  layerId: number,
  featureCount: number,
  definition: Record<string, unknown>,
): Promise<void> {
  await tx.rows(
    sql`update hosted_layers set feature_count = ${featureCount}, definition = ${JSON.stringify(definition)}::jsonb
        where service_item_id = ${serviceItemId} and layer_id = ${layerId}`,
  );
}

/** The service resource's extents follow its layers'. */
export async function writeServiceExtent(
  tx: EditTransaction,
  serviceItemId: string,
  extent: Record<string, unknown>,
  modified: number,
): Promise<void> {
  const json = JSON.stringify(extent);
  await tx.rows(
    sql`update hosted_services
        set definition = definition || jsonb_build_object('fullExtent', ${json}::jsonb, 'initialExtent', ${json}::jsonb),
            modified = ${modified}
        where service_item_id = ${serviceItemId}`,
  );
}

/** Layers' extents as stored in their resources, for the service's union. */
export async function layerExtents(tx: EditTransaction, serviceItemId: string): Promise<unknown[]> {
  const rows = await tx.rows<{ e: unknown }>(
    sql`select definition->'extent' as e from hosted_layers where service_item_id = ${serviceItemId}`,
  );
  return rows.map((r) => (typeof r.e === 'string' ? JSON.parse(r.e) : r.e));
}

/**
 * Editor tracking columns added to a freshly loaded table, the loaded rows credited to the publisher
 * at publish time. Safe to repeat: columns are added if missing and only empty values are filled.
 */
export async function addTrackingColumns(
  handle: DatabaseHandle,
  tableName: string,
  fields: readonly { role: string; column: string }[],
  publisher: string,
  at: number,
): Promise<void> {
  if (fields.length === 0) return;
  const instant = new Date(at).toISOString();
  const isDate = (f: { role: string }) => f.role.endsWith('DateField');
  const adds = fields.map(
    (f) => sql`add column if not exists ${column(f.column)} ${sql.raw(isDate(f) ? 'timestamptz' : 'text')}`,
  );
  await handle.rows(sql`alter table ${table(tableName)} ${sql.join(adds, sql`, `)}`);
  const sets = fields.map((f) =>
    isDate(f)
      ? sql`${column(f.column)} = coalesce(${column(f.column)}, ${instant}::timestamptz)`
      : sql`${column(f.column)} = coalesce(${column(f.column)}, ${publisher}::text)`,
  );
  await handle.rows(sql`update ${table(tableName)} set ${sql.join(sets, sql`, `)}`);
}
