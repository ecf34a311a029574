/**
 * Per-layer feature tables, the only code that names them. A table is `f_<serviceItemId>_<layerId>`
 * with `objectid`, one column `a_<n>` per attribute field, `shape` (Esri JSON in the storage spatial
 * reference) and `bbox` (a core PostgreSQL box, so PGlite serves it too). Identifiers are built from
 * checked ids only; values travel as COPY text or bound parameters, never spliced into statements.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type postgres from 'postgres';
import { internalError } from '../../lib/errors.js';
import type { Bounds } from '../../lib/geometry/types.js';
import { EXTENT_CORNERS, EXTENT_OF_ROWS } from '../../lib/query/extent-sql.js';
import { type EsriFieldType, FIELD_STORAGE } from '../../lib/query/field-types.js';
import type { DatabaseHandle } from '../client.js';
import { checkedIdentifier as checked, copyOnPostgres, copyStatement, isEmptyCopy } from './feature-copy.js';
import { assertCurrentAttempt } from './load-attempts.js';
import { CURRENT_ATTEMPT_SQL, checkAttempt, fenceParams, type LoadFence } from './load-fence.js';

export interface FeatureColumn {
  /** Esri field name. */
  name: string;
  /** Physical column, `a_<n>`. */
  column: string;
  type: EsriFieldType;
}

const ITEM_ID = /^[A-Za-z0-9]{32}$/;

export function featureTableName(serviceItemId: string, layerId: number): string {
  if (!ITEM_ID.test(serviceItemId) || !Number.isInteger(layerId) || layerId < 0 || layerId > 999) {
    throw internalError('Unable to complete operation.', ['Invalid feature table id.']);
  }
  return `f_${serviceItemId.toLowerCase()}_${layerId}`;
}

/** The physical column of the n-th attribute field. */
export const attributeColumn = (n: number): string => `a_${n}`;

const exec = (db: DatabaseHandle, text: string) => db.rows(sql.raw(text));

function sqlTypeOf(type: EsriFieldType): string {
  const storage = FIELD_STORAGE[type].sqlType;
  if (!storage || type === 'esriFieldTypeOID') {
    throw internalError('Unable to complete operation.', [`Field type ${type} has no attribute column.`]);
  }
  return storage;
}

/**
 * (Re)creates an empty table: a retried load starts over from nothing rather than from a half table.
 *
 * `partBounds` (PostgreSQL, large loads): the table is partitioned by object id range, a part ending
 * below each bound (exclusive) and a last one open upwards, so each part's indexes can be built while
 * the load fills the next (featureTableParts, indexFeaturePart) instead of all of them after it. Rows
 * are loaded in object id order, so a part is complete once the load has passed its bound.
 */
export async function createFeatureTable(
  db: DatabaseHandle,
  table: string,
  columns: readonly FeatureColumn[],
  partBounds: readonly number[] = [],
): Promise<void> {
  const defs = [
    '"objectid" integer not null',
    ...columns.map((c) => `${checked(c.column)} ${sqlTypeOf(c.type)}`),
    '"shape" text',
    '"bbox" box',
  ];
  await exec(db, `drop table if exists ${checked(table)}`);
  if (partBounds.length === 0) {
    await exec(db, `create table ${checked(table)} (${defs.join(', ')})`);
    return;
  }
  const bounds = partBounds.map((b) => Math.floor(b));
  if (bounds.some((b, i) => !Number.isSafeInteger(b) || b <= (i === 0 ? 1 : bounds[i - 1])))
    throw internalError('Unable to complete operation.', ['Invalid feature table parts.']);
  await exec(db, `create table ${checked(table)} (${defs.join(', ')}) partition by range ("objectid")`);
  for (let k = 0; k <= bounds.length; k++) {
    const from = k === 0 ? 'minvalue' : String(bounds[k - 1]);
    const to = k === bounds.length ? 'maxvalue' : String(bounds[k]);
    await exec(
      db,
      `create table ${checked(partName(table, k))} partition of ${checked(table)} for values from (${from}) to (${to})`,
    );
  }
}

/** The k-th part of a partitioned feature table. */
export const partName = (table: string, k: number): string => `${table}_p${k}`;

/** One part of a partitioned feature table: its object ids from `from` up to (not including) `to`. */
export interface FeatureTablePart {
  name: string;
  /** Null: no lower bound. */
  from: number | null;
  /** Null: no upper bound (the last part). */
  to: number | null;
  /** Both of its indexes are built (on its own or by the table's). */
  indexed: boolean;
  /** ANALYZE has written its statistics. */
  analyzed: boolean;
}

/** The parts of a partitioned feature table in object id order; none for a plain table. */
export async function featureTableParts(db: DatabaseHandle, table: string): Promise<FeatureTablePart[]> {
  const rows = await db.rows<{ name: string; bound: string; indexes: number | string; analyzed: boolean }>(
    sql`select c.relname as "name", pg_get_expr(c.relpartbound, c.oid) as "bound",
          (select count(*) from pg_index x where x.indrelid = c.oid and x.indisvalid) as "indexes",
          exists (select 1 from pg_statistic s where s.starelid = c.oid) as "analyzed"
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = to_regclass(${checked(table)})`,
  );
  const bound = (text: string | undefined) =>
    text === undefined || /^minvalue$|^maxvalue$/i.test(text) ? null : Number(text);
  return rows
    .map((r) => {
      const m = /FROM \((.*?)\) TO \((.*?)\)/i.exec(r.bound);
      return {
        name: r.name,
        from: bound(m?.[1]),
        to: bound(m?.[2]),
        indexed: Number(r.indexes) >= 2,
        analyzed: r.analyzed,
      };
    })
    .sort((a, b) => (a.from ?? -Infinity) - (b.from ?? -Infinity));
}

/** The spatial index of a feature table (or part) of `geometryType`, and the object-id index. */
function indexStatements(table: string, geometryType: string | null): [oid: string, spatial: string] {
  return [
    `create unique index if not exists ${checked(`${table}_oid`)} on ${checked(table)} ("objectid")`,
    geometryType === 'esriGeometryPoint'
      ? `create index if not exists ${checked(`${table}_pt`)} on ${checked(table)} using gist (("bbox"[0]))`
      : `create index if not exists ${checked(`${table}_bbox`)} on ${checked(table)} using spgist ("bbox")`,
  ];
}

/**
 * One complete part's indexes and statistics, built in turn on one connection while the load goes on
 * (the load and PostgreSQL's COPY use most of the cores; one more process is what is spare). The
 * table's own indexes (indexFeatureTable) then attach the part's instead of building them. Safe to
 * repeat.
 */
export async function indexFeaturePart(
  db: DatabaseHandle,
  part: string,
  geometryType: string | null,
  parts: number,
): Promise<void> {
  for (const build of featurePartIndexes(part, geometryType)) await build(db);
  await analyzeFeaturePart(db, part, parts);
}

/**
 * A part's two index builds (indexFeaturePart), spatial first, each on the connection it is given:
 * they may run at once on two (CREATE INDEX takes a SHARE lock, which does not conflict with itself);
 * its ANALYZE (analyzeFeaturePart) waits for both. Safe to repeat.
 */
export function featurePartIndexes(
  part: string,
  geometryType: string | null,
): ((db: DatabaseHandle) => Promise<void>)[] {
  const [oid, spatial] = indexStatements(part, geometryType);
  return [spatial, oid].map((statement) => async (db: DatabaseHandle) => {
    await exec(db, statement);
  });
}

/**
 * ANALYZE of one part of a table in `parts` parts, each sampled by its share of the statistics target
 * (the session's default_statistics_target over the number of parts, at least 10): the table as a
 * whole is sampled about as much as a plain table of its rows would be (100 by default: 30,000 rows),
 * where each part at the full target sampled that much again (a million points in four parts: ANALYZE
 * took 0.9 CPU-s of a 12.8 CPU-s publish; 130 ms against 30 ms a part of 250,000 rows at 25). The
 * planner plans each part's scan with its own statistics.
 */
export async function analyzeFeaturePart(db: DatabaseHandle, part: string, parts: number): Promise<void> {
  const share = Math.max(1, Math.floor(parts));
  await db.transaction(async (tx) => {
    await exec(
      tx,
      `select set_config('default_statistics_target', greatest(10, ceil(current_setting('default_statistics_target')::int / ${share}.0))::int::text, true)`,
    );
    await exec(tx, `analyze ${checked(part)}`);
  });
}

export async function dropFeatureTable(db: DatabaseHandle, table: string): Promise<void> {
  await exec(db, `drop table if exists ${checked(table)}`);
}

export async function featureTableExists(db: DatabaseHandle, table: string): Promise<boolean> {
  const rows = await db.rows<{ t: string | null }>(sql`select to_regclass(${checked(table)})::text as t`);
  return rows[0]?.t != null;
}

/**
 * Removes rows past a resume point: a batch committed after the last heartbeat was recorded is
 * loaded again on retry, so it must go first or it would be there twice.
 */
export async function deleteRowsAfter(db: DatabaseHandle, table: string, objectId: number): Promise<void> {
  await db.rows(sql`delete from ${sql.raw(checked(table))} where "objectid" > ${objectId}`);
}

/** The COPY column list for a table's attribute columns, in load order. */
export const copyColumns = (columns: readonly FeatureColumn[]): string[] => [
  'objectid',
  ...columns.map((c) => c.column),
  'shape',
  'bbox',
];

/**
 * Loads rows given as COPY text (tab-separated, `\N` for null, one row per line) or as binary COPY
 * data (PostgreSQL's binary format, header and trailer included) in one transaction: a batch is
 * either all in or not at all. With a fence, the transaction first checks that the load attempt is
 * still the current one (load-attempts.ts) and writes nothing if it is not.
 */
export async function copyRows(
  db: DatabaseHandle,
  table: string,
  columnNames: readonly string[],
  data: string | Uint8Array,
  fence?: LoadFence,
): Promise<void> {
  if (isEmptyCopy(data)) {
    if (fence) await assertCurrentAttempt(db, fence);
    return;
  }
  const batch = { table, columns: columnNames, data, fence };
  if (db.kind === 'postgres') return copyOnPostgres(db.driver as postgres.Sql, db.inTransaction, batch);
  // PGlite has no COPY FROM STDIN stream; it reads COPY input from a Blob at /dev/blob.
  const client = db.driver as PGlite | Transaction;
  const statement = copyStatement(batch, "'/dev/blob'");
  const blob = new Blob([data]);
  if (!fence) {
    await client.query(statement, [], { blob });
    return;
  }
  const fenced = async (tx: PGlite | Transaction) => {
    const current = await tx.query<{ attempt: number }>(CURRENT_ATTEMPT_SQL, fenceParams(fence));
    checkAttempt(fence, current.rows);
    await tx.query(statement, [], { blob });
  };
  if (db.inTransaction) return fenced(client);
  await (client as PGlite).transaction(fenced);
}

/**
 * Indexes built once after the load: cheaper than maintaining them row by row (measured: a
 * 1,000,000-point COPY into a table that already has them takes about half as long again as the
 * COPY and both builds afterwards). Safe to repeat.
 *
 * The spatial index: for point layers a GiST index on the point (`bbox[0]`, the box being the point
 * itself), which PostgreSQL builds by sorting (2.7 s for a million points here, against 5.2 s for
 * SP-GiST on the box and 10 s for GiST on the box); for other layers SP-GiST on the box, which serves
 * the same `&&` prefilter as GiST and builds about twice as fast.
 */
export async function indexFeatureTable(
  db: DatabaseHandle,
  table: string,
  geometryType: string | null = null,
): Promise<void> {
  // The two are built at once: on a pool each takes its own connection and PostgreSQL process, so the
  // object-id index is built while the spatial one sorts (a 1,000,000-point table: 3.5-3.9 s against
  // 4.1-4.5 s in turn). On one connection (PGlite, a transaction) they run in turn. Both are waited
  // for before a failure is thrown, so no build is left running behind a retry. On a partitioned
  // table the table's index attaches each part's index built during the load (indexFeaturePart) and
  // builds only the parts that have none (the last, usually).
  const built = await Promise.allSettled(indexStatements(table, geometryType).map((s) => exec(db, s)));
  for (const b of built) if (b.status === 'rejected') throw b.reason;
  // A table in parts is made only outside a transaction (load-layer.ts): a small publish asks nothing.
  const parts = db.kind === 'postgres' && !db.inTransaction ? await featureTableParts(db, table) : [];
  if (parts.length === 0) {
    await exec(db, `analyze ${checked(table)}`);
    return;
  }
  // Each part's statistics, as the planner plans each part's scan with its own; ANALYZE of the parent
  // would sample every part again (a million points in four parts: 1.07 s against 0.16 s a part), and
  // a query of one layer table reads no statistics of the parent.
  for (const p of parts) if (!p.analyzed) await analyzeFeaturePart(db, p.name, parts.length);
}

export interface FeatureTableStats {
  count: number;
  extent: Bounds | null;
  /** Asked for with `textColumns`: the longest value of each, in UTF-8 bytes (0 when all are null). */
  longest?: number[];
}

/** Row count and extent, and the longest value of `textColumns`, in one scan of the table. */
export async function featureTableStats(
  db: DatabaseHandle,
  table: string,
  textColumns: readonly string[] = [],
): Promise<FeatureTableStats> {
  const t = checked(table);
  const longest = textColumns.map((c, i) => `, coalesce(max(octet_length(${checked(c)})), 0) as l${i}`);
  const passed = textColumns.map((_, i) => `, l${i}`);
  const rows = await db.rows<Record<string, string | number | null>>(
    sql.raw(
      `select n, ${EXTENT_CORNERS}${passed.join('')} from ` +
        `(select count(*)::bigint as n, ${EXTENT_OF_ROWS}${longest.join('')} from ${t}) as x`,
    ),
  );
  const r = rows[0] ?? {};
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const [xmin, ymin, xmax, ymax] = [num(r.xmin), num(r.ymin), num(r.xmax), num(r.ymax)];
  const extent: Bounds | null =
    xmin === null || ymin === null || xmax === null || ymax === null ? null : [xmin, ymin, xmax, ymax];
  return {
    count: Number(r.n ?? 0),
    extent,
    ...(textColumns.length > 0 ? { longest: textColumns.map((_, i) => Number(r[`l${i}`] ?? 0)) } : {}),
  };
}

/**
 * The instants a time-aware layer spans, in epoch milliseconds: the earliest start and the latest
 * end (a missing end counts as its start); null when no row has a start time.
 */
export async function featureTableTimeExtent(
  db: DatabaseHandle,
  table: string,
  startColumn: string,
  endColumn: string | null,
): Promise<[number, number] | null> {
  const start = checked(startColumn);
  const end = endColumn ? `coalesce(${checked(endColumn)}, ${start})` : start;
  const rows = await db.rows<{ lo: string | number | null; hi: string | number | null }>(
    sql.raw(
      `select (extract(epoch from min(${start})) * 1000)::double precision as lo, ` +
        `(extract(epoch from max(${end})) * 1000)::double precision as hi from ${checked(table)} where ${start} is not null`,
    ),
  );
  const r = rows[0];
  if (!r || r.lo === null || r.hi === null) return null;
  return [Math.round(Number(r.lo)), Math.round(Number(r.hi))];
}

/** One value in COPY text format. */
export function copyValue(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '\\N';
  let out = '';
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value.charCodeAt(i);
    // backslash, tab, newline, carriage return
    if (ch === 92 || ch === 9 || ch === 10 || ch === 13) {
      out += value.slice(start, i) + (ch === 92 ? '\\\\' : ch === 9 ? '\\t' : ch === 10 ? '\\n' : '\\r');
      start = i + 1;
    }
  }
  return start === 0 ? value : out + value.slice(start);
}

/** A box literal for the bbox column. */
export const boxLiteral = (b: Bounds): string => `(${b[2]},${b[3]}),(${b[0]},${b[1]})`;
