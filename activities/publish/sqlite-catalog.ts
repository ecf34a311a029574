/**
 * What a GeoPackage, SpatiaLite or plain SQLite database holds: rows come from the file through the
 * streaming decoder (lib/ingest/sqlite-file.ts), the schema and system tables are queried with SQL
 * in a small sql.js catalog (SQLite in WebAssembly, no native build). Its feature tables (GeoPackage contents, or geometry_columns) and
 * attribute tables, each with declared fields, geometry column and format, geometry type, z/m,
 * spatial reference, row count and the integer key rows are read in order of.
 */
import { setImmediate } from 'node:timers/promises';
import initSqlJs, { type Database, type SqlJsStatic, type SqlValue } from 'sql.js';
import { type OpenedSqlite, sqliteFromBytes } from '../../infra/readers/sqlite-pages.js';
import { badRequest, isGeoError } from '../../lib/errors.js';
import type { EsriGeometryType } from '../../lib/geometry/types.js';
import type { EsriFieldType } from '../../lib/ingest/index.js';
import { sqliteFieldType, sqliteGeometryBase } from '../../lib/ingest/sqlite-fields.js';
import { type SqliteFile, SqliteFormatError } from '../../lib/ingest/sqlite-file.js';
import { wkidFromPrj } from '../../lib/projection/index.js';

export type GeometryFormat = 'gpkg' | 'spatialite' | 'wkb';

export interface SqliteField {
  column: string;
  /** GeoPackage schema extension's title (or name) of the column; the column name otherwise. */
  alias?: string;
  type: EsriFieldType;
  length?: number;
  nullable: boolean;
  /** An Esri coded-value or range domain from the column's GeoPackage constraint. */
  domain?: Record<string, unknown>;
}

export interface SqliteLayer {
  table: string;
  name: string;
  /** An INTEGER PRIMARY KEY column, or rowid: rows are read in its order and resume after a value. */
  key: string;
  fields: SqliteField[];
  geometryColumn: string | null;
  geometryFormat: GeometryFormat;
  /** 1 point … 7 collection; 0: any (decided from the rows). */
  geometryBase: number;
  hasZ: boolean;
  hasM: boolean;
  /** EPSG code of the layer's coordinates; null when the file leaves it undefined. */
  wkid: number | null;
  /** Rows of the table: counted only when described with `measure`. */
  count?: number;
  /**
   * Text columns without a declared width. Described with `measure`, their fields have the longest
   * value's length (at least 256); otherwise they have none, and the publish measures the loaded rows.
   */
  unsized: string[];
}

const unreadable = (detail: string) => badRequest('Unable to read the file.', [detail]);

let engine: Promise<SqlJsStatic> | undefined;
/** The compiled sql.js module: stateless, so one per process. */
const sqlJs = () => {
  engine ??= initSqlJs();
  return engine;
};

/**
 * An open database: its rows are read from the file by the streaming decoder; its schema and
 * small system tables (GeoPackage contents, geometry columns, spatial reference systems, data
 * columns; SpatiaLite's geometry_columns and spatial_ref_sys) are copied into an in-memory sql.js
 * catalog, so the catalog is queried with SQL while the data tables are never loaded whole.
 */
export interface SqliteDatabase {
  catalog: Database;
  file: SqliteFile;
  /** Root page of each table, by lower-cased name. */
  roots: Map<string, number>;
  close(): void;
}

const CATALOG_TABLES = new Set([
  'gpkg_contents',
  'gpkg_geometry_columns',
  'gpkg_spatial_ref_sys',
  'gpkg_data_columns',
  'gpkg_data_column_constraints',
  'geometry_columns',
  'spatial_ref_sys',
]);

const damaged = (e: unknown) =>
  unreadable(`The database is damaged: ${e instanceof Error ? e.message : String(e)}`);

/** Runs a read of the file, with the decoder's errors (a malformed page) as the client's. */
export function reading<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof SqliteFormatError) throw damaged(e);
    throw e;
  }
}

/**
 * Opens a database from its pages. A file shorter than its header says (a truncated upload) is
 * refused by the page source, before any row is read, so nothing of it is published.
 */
export async function openSqlite(source: Uint8Array | (() => OpenedSqlite)): Promise<SqliteDatabase> {
  let opened: OpenedSqlite;
  try {
    opened = source instanceof Uint8Array ? sqliteFromBytes(source) : source();
  } catch (e) {
    if (e instanceof SqliteFormatError) throw unreadable(e.message);
    throw e;
  }
  const SQL = await sqlJs();
  const catalog = new SQL.Database();
  try {
    const schema = reading(() => opened.file.schema());
    const roots = new Map<string, number>();
    for (const entry of schema) {
      if (entry.type !== 'table' || !entry.sql || /^\s*CREATE\s+VIRTUAL/i.test(entry.sql)) continue;
      roots.set(entry.name.toLowerCase(), entry.rootPage);
      if (entry.name.toLowerCase().startsWith('sqlite_')) continue;
      try {
        catalog.run(entry.sql);
      } catch (e) {
        throw unreadable(
          `The table ${entry.name} cannot be read: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
    for (const entry of schema) {
      const name = entry.name.toLowerCase();
      if (entry.type === 'table' && CATALOG_TABLES.has(name) && roots.has(name))
        copyIntoCatalog(catalog, opened.file, entry.name, entry.rootPage);
    }
    return {
      catalog,
      file: opened.file,
      roots,
      close: () => {
        catalog.close();
        opened.close();
      },
    };
  } catch (e) {
    catalog.close();
    opened.close();
    throw e;
  }
}

/**
 * Copies a catalog table's rows (the GeoPackage or SpatiaLite metadata) into the catalog. A damaged
 * file can name a table its CREATE statement does not make, or hold rows its constraints refuse:
 * either is the client's file, refused with a 400 naming the table.
 */
function copyIntoCatalog(catalog: Database, file: SqliteFile, table: string, root: number): void {
  const layout = columnsOf(catalog, table);
  if (layout.length === 0)
    throw unreadable(`The table ${table} cannot be read: its CREATE statement does not define it.`);
  const integerKey = layout.findIndex((c) => c.pk === 1 && c.type.toUpperCase() === 'INTEGER');
  const names = ['rowid', ...layout.map((c) => quoted(c.name))].join(', ');
  let stmt: ReturnType<Database['prepare']> | undefined;
  try {
    stmt = catalog.prepare(
      `INSERT INTO ${quoted(table)} (${names}) VALUES (${layout.map(() => '?').join(', ')}, ?)`,
    );
    const insert = stmt;
    reading(() => {
      for (const { rowid, values } of file.rows(root)) {
        const row: SqlValue[] = [rowid];
        for (let i = 0; i < layout.length; i++) row.push(i === integerKey ? rowid : (values[i] ?? null));
        insert.run(row);
      }
    });
  } catch (e) {
    if (isGeoError(e)) throw e;
    throw unreadable(`The table ${table} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    stmt?.free();
  }
}

/** A query of the catalog's rows. */
export function rows(db: SqliteDatabase | Database, sql: string, params: SqlValue[] = []): SqlValue[][] {
  const catalog = 'catalog' in db ? db.catalog : db;
  try {
    const stmt = catalog.prepare(sql, params);
    const out: SqlValue[][] = [];
    while (stmt.step()) out.push(stmt.get());
    stmt.free();
    return out;
  } catch (e) {
    throw damaged(e);
  }
}

/** Where a table's rows are and how a record's values map to its columns. */
export interface TableLayout {
  root: number;
  /** Record position of each column, by name (the INTEGER PRIMARY KEY column reads the rowid: -1). */
  position: Map<string, number>;
  /**
   * The value of column `i` in rows written before it was added (records shorter than the table):
   * its DEFAULT, evaluated by SQLite in the catalog the first time such a row is met.
   */
  defaultOf(i: number): SqlValue;
}

export function tableLayout(db: SqliteDatabase, table: string): TableLayout {
  const root = db.roots.get(table.toLowerCase());
  if (root === undefined)
    throw unreadable(`${table} is not a table with rows of its own (a view or virtual table is not read).`);
  const columns = columnsOf(db.catalog, table);
  const pks = columns.filter((c) => c.pk > 0);
  const position = new Map<string, number>([['rowid', -1]]);
  columns.forEach((c, i) => {
    const integerKey = pks.length === 1 && c.pk === 1 && c.type.toUpperCase() === 'INTEGER';
    position.set(c.name, integerKey ? -1 : i);
  });
  const defaults = new Map<number, SqlValue>();
  const defaultOf = (i: number): SqlValue => {
    if (!defaults.has(i)) {
      const dflt = columns[i]?.dflt ?? null;
      defaults.set(i, dflt === null ? null : (rows(db, `SELECT ${dflt}`)[0]?.[0] ?? null));
    }
    return defaults.get(i) ?? null;
  };
  return { root, position, defaultOf };
}

export const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

const hasTable = (db: SqliteDatabase, name: string) =>
  rows(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).length > 0;

interface Column {
  name: string;
  type: string;
  notNull: boolean;
  dflt: string | null;
  pk: number;
}

const columnsOf = (db: SqliteDatabase | Database, table: string): Column[] =>
  rows(db, `PRAGMA table_info(${quoted(table)})`).map((r) => ({
    name: String(r[1]),
    type: String(r[2] ?? ''),
    notNull: r[3] === 1,
    dflt: r[4] === null ? null : String(r[4]),
    pk: Number(r[5]),
  }));

interface Described {
  table: string;
  name: string;
  geometryColumn: string | null;
  geometryBase: number;
  hasZ: boolean;
  hasM: boolean;
  wkid: number | null;
}

/**
 * Every layer and table of the database, feature tables first in the order the file lists them.
 * With `measure` (analyze) every row is read once: the row count, and the longest value of each text
 * column without a declared width. A publish does not measure here: the load reads every row anyway,
 * and the finished layer takes those lengths from the loaded table.
 */
export async function describeSqlite(
  db: SqliteDatabase,
  { measure = false }: { measure?: boolean } = {},
): Promise<SqliteLayer[]> {
  const geopackage = hasTable(db, 'gpkg_contents');
  const listed = geopackage ? geoPackageLayers(db) : sqliteLayers(db);
  if (listed.length === 0)
    throw unreadable(
      geopackage
        ? 'The GeoPackage holds no feature or attribute table (tile pyramids are not published as features).'
        : 'The database holds no table.',
    );
  const format: GeometryFormat = geopackage ? 'gpkg' : sqliteGeometryFormat(db);
  const schema = geopackage ? dataColumns(db) : new Map<string, DataColumn>();
  const out: SqliteLayer[] = [];
  for (const d of listed) {
    const columns = columnsOf(db, d.table);
    const pks = columns.filter((c) => c.pk > 0);
    const key = pks.length === 1 && pks[0].type.toUpperCase() === 'INTEGER' ? pks[0].name : 'rowid';
    const fields: SqliteField[] = [];
    const unsized: SqliteField[] = [];
    for (const c of columns) {
      if (c.name === d.geometryColumn || c.name === key) continue;
      const t = sqliteFieldType(c.type, geopackage);
      if (!t) continue; // binary attributes: a feature table has no column type for them
      const described = schema.get(`${d.table}\u0000${c.name}`.toLowerCase());
      const field: SqliteField = {
        column: c.name,
        ...(described?.alias ? { alias: described.alias } : {}),
        type: t.type,
        ...(t.length ? { length: t.length } : {}),
        nullable: !c.notNull,
        ...(described?.domain ? { domain: described.domain } : {}),
      };
      if (t.type === 'esriFieldTypeString' && t.length === undefined) unsized.push(field);
      fields.push(field);
    }
    const layer = { ...d, key, fields, geometryFormat: format, unsized: unsized.map((f) => f.column) };
    if (!measure) {
      out.push(layer);
      continue;
    }
    const layout = tableLayout(db, d.table);
    let count: number;
    if (unsized.length === 0) {
      count = reading(() => db.file.count(layout.root));
    } else {
      // One pass over the rows: their count and the longest value of each text column without a
      // length (in bytes, which is never less than characters).
      const at = unsized.map((f) => layout.position.get(f.column) ?? -1);
      const steps = db.file.longestValuesSteps(layout.root, at);
      let step = reading(() => steps.next());
      while (!step.done) {
        await setImmediate(); // a large table: let the process answer meanwhile
        step = reading(() => steps.next());
      }
      const scanned = step.value;
      count = scanned.count;
      const longest = at.map((p, i) => {
        const added = p >= scanned.fewest ? layout.defaultOf(p) : null;
        return Math.max(scanned.longest[i], added === null || added === undefined ? 0 : String(added).length);
      });
      unsized.forEach((f, i) => {
        f.length = Math.max(256, longest[i]);
      });
    }
    out.push({ ...layer, count });
  }
  return out;
}

interface DataColumn {
  alias?: string;
  domain?: Record<string, unknown>;
}

/**
 * The GeoPackage schema extension (gpkg_data_columns and gpkg_data_column_constraints, OGC
 * 12-128r18 annex F.9): column titles become aliases, enum constraints coded-value domains and
 * range constraints range domains, as GDAL writes a file geodatabase's domains.
 */
function dataColumns(db: SqliteDatabase): Map<string, DataColumn> {
  const out = new Map<string, DataColumn>();
  if (!hasTable(db, 'gpkg_data_columns')) return out;
  const constraints = new Map<string, SqlValue[][]>();
  if (hasTable(db, 'gpkg_data_column_constraints')) {
    for (const r of rows(
      db,
      'SELECT constraint_name, constraint_type, value, min, max, description FROM gpkg_data_column_constraints ORDER BY rowid',
    )) {
      const list = constraints.get(String(r[0])) ?? [];
      list.push(r);
      constraints.set(String(r[0]), list);
    }
  }
  for (const r of rows(
    db,
    'SELECT table_name, column_name, title, name, constraint_name FROM gpkg_data_columns',
  )) {
    const alias =
      typeof r[2] === 'string' && r[2] ? r[2] : typeof r[3] === 'string' && r[3] ? r[3] : undefined;
    const name = r[4] === null ? null : String(r[4]);
    const domain = name ? domainOf(name, constraints.get(name) ?? []) : undefined;
    out.set(`${r[0]}\u0000${r[1]}`.toLowerCase(), {
      ...(alias ? { alias } : {}),
      ...(domain ? { domain } : {}),
    });
  }
  return out;
}

function domainOf(name: string, constraints: SqlValue[][]): Record<string, unknown> | undefined {
  const range = constraints.find((c) => c[1] === 'range');
  if (range) return { type: 'range', name, range: [Number(range[3]), Number(range[4])] };
  const values = constraints.filter((c) => c[1] === 'enum');
  if (values.length === 0) return undefined;
  return {
    type: 'codedValue',
    name,
    codedValues: values.map((c) => ({
      name: typeof c[5] === 'string' && c[5] ? c[5] : String(c[2]),
      code: c[2] !== null && c[2] !== '' && Number.isFinite(Number(c[2])) ? Number(c[2]) : c[2],
    })),
  };
}

function geoPackageLayers(db: SqliteDatabase): Described[] {
  const geometry = new Map<string, SqlValue[]>();
  if (hasTable(db, 'gpkg_geometry_columns')) {
    for (const r of rows(
      db,
      'SELECT table_name, column_name, geometry_type_name, srs_id, z, m FROM gpkg_geometry_columns',
    ))
      geometry.set(String(r[0]), r);
  }
  const contents = rows(
    db,
    "SELECT table_name, identifier, data_type, srs_id FROM gpkg_contents WHERE data_type IN ('features', 'attributes') ORDER BY data_type DESC, rowid",
  );
  return contents.map((r) => {
    const table = String(r[0]);
    const g = r[2] === 'features' ? geometry.get(table) : undefined;
    return {
      table,
      name: String(r[1] || table),
      geometryColumn: g ? String(g[1]) : null,
      geometryBase: g ? sqliteGeometryBase(String(g[2])) : 0,
      hasZ: g ? Number(g[4]) > 0 : false,
      hasM: g ? Number(g[5]) > 0 : false,
      wkid: g ? geoPackageWkid(db, Number(g[3])) : null,
    };
  });
}

function geoPackageWkid(db: SqliteDatabase, srsId: number): number | null {
  if (srsId === 0 || srsId === -1) return null;
  const r = rows(
    db,
    'SELECT organization, organization_coordsys_id, definition FROM gpkg_spatial_ref_sys WHERE srs_id = ?',
    [srsId],
  )[0];
  if (!r) return srsId;
  if (String(r[0]).toUpperCase() === 'EPSG') return Number(r[1]);
  return wkidFromPrj(String(r[2] ?? '')) ?? null;
}

/** SpatiaLite blobs unless GDAL's geometry_format column says WKB (WKT is refused). */
function sqliteGeometryFormat(db: SqliteDatabase): GeometryFormat {
  if (!hasTable(db, 'geometry_columns')) return 'wkb';
  if (!columnsOf(db, 'geometry_columns').some((c) => c.name.toLowerCase() === 'geometry_format'))
    return 'spatialite';
  const formats = new Set(
    rows(db, 'SELECT upper(geometry_format) FROM geometry_columns').map((r) => String(r[0])),
  );
  for (const f of formats) {
    if (f !== 'WKB' && f !== 'SPATIALITE')
      throw unreadable(
        `Geometries stored as ${f} are not readable: export the database with FORMAT=WKB or SPATIALITE.`,
      );
  }
  return formats.has('SPATIALITE') ? 'spatialite' : 'wkb';
}

const SYSTEM_TABLES =
  /^(sqlite_|spatial_ref_sys|spatialite_history|geometry_columns|views_geometry_columns|virts_geometry_columns|geom_cols_ref_sys|data_licenses|sql_statements_log|SpatialIndex|ElementaryGeometries|KNN|idx_|layer_statistics|views_layer_statistics|virts_layer_statistics|vector_layers|raster_coverages|topologies|networks|rl2map_configurations|SE_|ISO_metadata)/i;

function sqliteLayers(db: SqliteDatabase): Described[] {
  const out: Described[] = [];
  const spatial = new Set<string>();
  if (hasTable(db, 'geometry_columns')) {
    const cols = columnsOf(db, 'geometry_columns').map((c) => c.name.toLowerCase());
    const typeColumn = cols.includes('geometry_type') ? 'geometry_type' : 'type';
    for (const r of rows(
      db,
      `SELECT f_table_name, f_geometry_column, ${typeColumn}, coord_dimension, srid FROM geometry_columns`,
    )) {
      const table = String(r[0]);
      const tables = rows(
        db,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND lower(name) = lower(?)",
        [table],
      );
      if (tables.length === 0) continue; // a registered table that was dropped
      const real = String(tables[0][0]);
      spatial.add(real.toLowerCase());
      const type = r[2];
      const dims = String(r[3] ?? '2').toUpperCase();
      const numeric = typeof type === 'number' ? type % 1000 : sqliteGeometryBase(String(type ?? ''));
      const thousands = typeof type === 'number' ? Math.floor((type % 1000000) / 1000) : 0;
      out.push({
        table: real,
        name: real,
        geometryColumn: realColumn(db, real, String(r[1])),
        geometryBase: numeric,
        hasZ: thousands === 1 || thousands === 3 || dims === '3' || dims === '4' || dims.includes('Z'),
        hasM: thousands === 2 || thousands === 3 || dims === '4' || dims.includes('M'),
        wkid: sqliteWkid(db, Number(r[4])),
      });
    }
  }
  const names = rows(db, "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid");
  for (const [name, sql] of names) {
    const table = String(name);
    if (spatial.has(table.toLowerCase()) || SYSTEM_TABLES.test(table) || /^CREATE VIRTUAL/i.test(String(sql)))
      continue;
    out.push({
      table,
      name: table,
      geometryColumn: null,
      geometryBase: 0,
      hasZ: false,
      hasM: false,
      wkid: null,
    });
  }
  return out;
}

/** geometry_columns stores names lower-cased; the table's own spelling is used in queries. */
function realColumn(db: SqliteDatabase, table: string, column: string): string {
  return columnsOf(db, table).find((c) => c.name.toLowerCase() === column.toLowerCase())?.name ?? column;
}

function sqliteWkid(db: SqliteDatabase, srid: number): number | null {
  if (!Number.isFinite(srid) || srid <= 0) return null;
  if (!hasTable(db, 'spatial_ref_sys')) return srid;
  const r = rows(db, 'SELECT auth_name, auth_srid FROM spatial_ref_sys WHERE srid = ?', [srid])[0];
  return r && String(r[0]).toLowerCase() === 'epsg' && r[1] !== null ? Number(r[1]) : srid;
}

/** The Esri geometry type of a declared base type; null for "any", decided from the rows. */
export function esriTypeOfBase(base: number): EsriGeometryType | null {
  return (
    (
      {
        1: 'esriGeometryPoint',
        2: 'esriGeometryPolyline',
        3: 'esriGeometryPolygon',
        4: 'esriGeometryMultipoint',
        5: 'esriGeometryPolyline',
        6: 'esriGeometryPolygon',
      } as Record<number, EsriGeometryType>
    )[base] ?? null
  );
}
