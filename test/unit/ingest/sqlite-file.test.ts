/**
 * The streaming SQLite decoder against sql.js (SQLite itself, compiled to WebAssembly) on files
 * written by the sqlite3 shell and GDAL's ogr2ogr: every row, value for value, and scans that
 * start after a rowid.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs, { type Database, type SqlValue } from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSqlite, openSqlite } from '../../../activities/publish/sqlite-catalog.js';
import {
  layerGeometryType,
  sqliteBatches,
  sqliteGeometryBounds,
} from '../../../activities/publish/sqlite-source.js';
import { openSqlitePath, sqliteFromBytes } from '../../../infra/readers/sqlite-pages.js';
import { geometryBounds, unionBounds } from '../../../lib/geometry/bounds.js';
import type { EsriGeometry } from '../../../lib/geometry/types.js';
import { SqliteFile, SqliteFormatError, type SqliteValue } from '../../../lib/ingest/sqlite-file.js';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-file-test-'));

/** A GeoPackage layer in WGS84 written by ogr2ogr from a CSV, with the CSV driver's open options. */
function gpkgFromCsv(csv: string, gpkg: string, layer: string, open: string[], more: string[] = []) {
  const options = open.flatMap((o) => ['-oo', o]);
  execFileSync('ogr2ogr', [
    '-f',
    'GPKG',
    gpkg,
    csv,
    ...options,
    '-a_srs',
    'EPSG:4326',
    '-nln',
    layer,
    ...more,
  ]);
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database written by the sqlite3 shell from `sql`. */
function sqlite3(name: string, sql: string): string {
  const path = join(dir, name);
  execFileSync('sqlite3', [path], { input: sql });
  return path;
}

// Values of every storage class and integer width, text that overflows several pages (and blobs),
// non-ASCII text, rows deleted (rowid gaps), a column added after rows were written.
const MIXED = `
PRAGMA page_size = 512;
CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB);
WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 3000)
INSERT INTO t SELECT k,
  CASE k % 9 WHEN 0 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN -k WHEN 3 THEN k * 100000 WHEN 4 THEN k * 10000000000
    WHEN 5 THEN -9223372036854775807 + k WHEN 6 THEN NULL WHEN 7 THEN k * 300 ELSE 8388607 + k END,
  CASE WHEN k % 4 = 0 THEN NULL ELSE k / 7.0 END,
  CASE WHEN k % 50 = 0 THEN printf('%.*c', 1500 + k, 'x') WHEN k % 3 = 0 THEN 'Zürich ' || k || ' 東京' ELSE 'row ' || k END,
  CASE WHEN k % 10 = 0 THEN randomblob(k % 700) ELSE NULL END
FROM n;
DELETE FROM t WHERE id % 11 = 0;
ALTER TABLE t ADD COLUMN late TEXT DEFAULT 'later';
INSERT INTO t (id, i, late) VALUES (5000, 42, 'given');
CREATE TABLE plain (a TEXT, b REAL);
INSERT INTO plain VALUES ('one', 1.5), ('two', NULL);
CREATE INDEX t_i ON t (i);
CREATE TABLE grown (a TEXT);
INSERT INTO grown VALUES ('one'), ('two'), ('three');
ALTER TABLE grown ADD COLUMN b TEXT DEFAULT 'default';
UPDATE grown SET b = 'set' WHERE rowid = 1;
`;

let SQL: Awaited<ReturnType<typeof initSqlJs>>;
beforeAll(async () => {
  SQL = await initSqlJs();
});

const sqlJsRows = (db: Database, sql: string): SqlValue[][] => {
  const stmt = db.prepare(sql);
  const out: SqlValue[][] = [];
  while (stmt.step()) out.push(stmt.get());
  stmt.free();
  return out;
};

/** Our rows as sql.js reports `SELECT rowid, *`: the INTEGER PRIMARY KEY reads the rowid, late columns their default. */
function ours(path: string, table: string, after?: number, integerKey = -1, defaults: SqliteValue[] = []) {
  const opened = openSqlitePath(path);
  try {
    const root = opened.file.schema().find((e) => e.type === 'table' && e.name === table)?.rootPage ?? 0;
    const width = defaults.length;
    return [...opened.file.rows(root, after)].map(({ rowid, values }) => [
      rowid,
      ...Array.from({ length: width }, (_, i) =>
        i === integerKey ? rowid : i < values.length ? values[i] : defaults[i],
      ),
    ]);
  } finally {
    opened.close();
  }
}

describe('the SQLite file decoder', () => {
  const path = sqlite3('mixed.db', MIXED);
  const reference = () => new SQL.Database(readFileSync(path));

  it('reads every row of a deep 512-byte-page table as SQLite does (overflow, gaps, every integer width)', () => {
    const db = reference();
    const expected = sqlJsRows(db, 'SELECT rowid, * FROM t ORDER BY rowid');
    db.close();
    const got = ours(path, 't', undefined, 0, [null, null, null, null, null, 'later']);
    expect(got.length).toBe(expected.length);
    expect(got.length).toBe(3000 - Math.floor(3000 / 11) + 1);
    expect(got).toEqual(expected);
    // A few values checked by hand, independent of both readers.
    const byId = new Map(got.map((r) => [r[0], r]));
    expect(byId.get(5)?.[2]).toBe(Number(-9223372036854775807n + 5n));
    expect(byId.get(4)?.[2]).toBe(40000000000);
    expect(byId.get(3)?.[4]).toBe('Zürich 3 東京');
    expect(String(byId.get(50)?.[4]).length).toBe(1550);
    expect(byId.get(5000)?.slice(1)).toEqual([5000, 42, null, null, null, 'given']);
    expect(byId.has(11)).toBe(false);
  });

  it('starts after a rowid, inside and between leaves, without the rows before', () => {
    const db = reference();
    for (const after of [0, 1, 10, 11, 12, 777, 1999, 2999, 3000, 4999, 5000]) {
      const expected = sqlJsRows(db, `SELECT rowid, * FROM t WHERE rowid > ${after} ORDER BY rowid`);
      expect(ours(path, 't', after, 0, [null, null, null, null, null, 'later'])).toEqual(expected);
    }
    db.close();
  });

  it('decodes only the rows a reader wants and counts the others over, from the start or after a rowid', () => {
    const db = reference();
    const opened = openSqlitePath(path);
    try {
      const root = opened.file.schema().find((e) => e.type === 'table' && e.name === 't')?.rootPage ?? 0;
      for (const after of [undefined, 0, 12, 777, 2999, 5000]) {
        const rowids = sqlJsRows(
          db,
          `SELECT rowid FROM t ${after === undefined ? '' : `WHERE rowid > ${after}`} ORDER BY rowid`,
        ).map((r) => r[0]);
        // Runs of 100 rows: the even runs decoded, the odd ones passed over.
        const wanted = (i: number) => Math.floor(i / 100) % 2 === 0;
        const got: number[] = [];
        let index = 0;
        for (const r of opened.file.rowsWhere(root, after ?? Number.NEGATIVE_INFINITY, wanted)) {
          if (typeof r === 'number') {
            expect(r).toBeGreaterThan(0);
            for (let k = 0; k < r; k++) expect(wanted(index + k)).toBe(false);
            index += r;
          } else {
            expect(wanted(index)).toBe(true);
            got.push(r.rowid);
            index++;
          }
        }
        expect(index).toBe(rowids.length);
        expect(got).toEqual(rowids.filter((_, i) => wanted(i)));
      }
    } finally {
      opened.close();
      db.close();
    }
  });

  it('reads a record only up to the position asked for, the earlier values as a full read gives them', () => {
    const opened = openSqlitePath(path);
    try {
      const root = opened.file.schema().find((e) => e.type === 'table' && e.name === 't')?.rootPage ?? 0;
      const full = [...opened.file.rows(root)];
      for (const upTo of [0, 1, 3]) {
        let k = 0;
        for (const r of opened.file.rowsWhere(root, Number.NEGATIVE_INFINITY, () => true, upTo)) {
          if (typeof r === 'number') throw new Error('no row is passed over');
          const whole = full[k++];
          expect(r.rowid).toBe(whole.rowid);
          expect(r.count).toBe(Math.min(whole.values.length, upTo + 1));
          expect(r.values.slice(0, r.count)).toEqual(whole.values.slice(0, upTo + 1));
        }
        expect(k).toBe(full.length);
      }
    } finally {
      opened.close();
    }
  });

  it('lays records out in place, each value read from its cell as a full read decodes it, from the start or after a rowid', () => {
    const opened = openSqlitePath(path);
    try {
      const root = opened.file.schema().find((e) => e.type === 'table' && e.name === 't')?.rootPage ?? 0;
      for (const after of [Number.NEGATIVE_INFINITY, 12, 2999]) {
        const full = [...opened.file.rows(root, after)];
        const wanted = (i: number) => Math.floor(i / 100) % 2 === 0;
        let k = 0;
        let index = 0;
        for (const r of opened.file.recordsWhere(root, after, wanted)) {
          if (typeof r === 'number') {
            k += r;
            index += r;
            continue;
          }
          expect(wanted(index++)).toBe(true);
          const whole = full[k++];
          expect(r.rowid).toBe(whole.rowid);
          expect(r.count).toBe(whole.values.length);
          expect(Array.from({ length: r.count }, (_, v) => opened.file.value(r, v))).toEqual(whole.values);
        }
        expect(k).toBe(full.length);
      }
    } finally {
      opened.close();
    }
  });

  it("measures the longest value of columns from the records' headers as sql.js measures them", () => {
    const db = reference();
    const opened = openSqlitePath(path);
    try {
      const root = opened.file.schema().find((e) => e.type === 'table' && e.name === 't')?.rootPage ?? 0;
      // s: texts of one to several overflow pages, some not ASCII (UTF-8 bytes); b: blobs; i: integers of
      // every width (the length of their text); late: missing from the rows written before it was added.
      const [[count, s, b, i, fewest]] = sqlJsRows(
        db,
        `SELECT count(*), max(length(CAST(s AS BLOB))), max(length(b)), max(length(CAST(i AS TEXT))),
           min(CASE WHEN late IS NULL OR id < 5000 THEN 5 ELSE 6 END) FROM t`,
      );
      const got = opened.file.longestValues(root, [3, 4, 1]);
      expect(got).toEqual({ count, longest: [s, b, i], fewest });
    } finally {
      opened.close();
      db.close();
    }
  });

  it('gives each row only its own record when one row object is reused, a shorter record after a longer', () => {
    const opened = openSqlitePath(path);
    try {
      const root = opened.file.schema().find((e) => e.name === 'grown')?.rootPage ?? 0;
      // The update rewrote row 1 with the added column; rows 2 and 3 still hold one value.
      expect([...opened.file.rows(root)]).toEqual([
        { rowid: 1, values: ['one', 'set'] },
        { rowid: 2, values: ['two'] },
        { rowid: 3, values: ['three'] },
      ]);
      const got = [];
      for (const r of opened.file.rowsWhere(root, Number.NEGATIVE_INFINITY, () => true)) {
        if (typeof r === 'number') throw new Error('no row is passed over');
        got.push({ rowid: r.rowid, values: r.values.slice(0, r.count) });
      }
      expect(got).toEqual([
        { rowid: 1, values: ['one', 'set'] },
        { rowid: 2, values: ['two'] },
        { rowid: 3, values: ['three'] },
      ]);
    } finally {
      opened.close();
    }
  });

  it('counts rows from the leaves and reads a table without a declared key by its rowid', () => {
    const opened = openSqlitePath(path);
    const schema = opened.file.schema();
    const root = (name: string) => schema.find((e) => e.name === name)?.rootPage ?? 0;
    expect(opened.file.count(root('t'))).toBe(2729);
    // The estimate from the interior pages and a few leaves: near the count; exact on one leaf page.
    expect(Math.abs(opened.file.estimatedCount(root('t')) - 2729)).toBeLessThan(2729 * 0.1);
    expect(opened.file.estimatedCount(root('t'), 10_000)).toBe(2729);
    expect(opened.file.estimatedCount(root('plain'))).toBe(2);
    expect([...opened.file.rows(root('plain'))]).toEqual([
      { rowid: 1, values: ['one', 1.5] },
      { rowid: 2, values: ['two', null] },
    ]);
    expect(schema.map((e) => [e.type, e.name])).toEqual([
      ['table', 't'],
      ['table', 'plain'],
      ['index', 't_i'],
      ['table', 'grown'],
    ]);
    opened.close();
  });

  it("estimates a deep table's rows from its interior pages and a few leaves", () => {
    // 300,000 rows of uneven lengths: a root, a level of interior pages, then the leaves.
    const deep = sqlite3(
      'deep.db',
      `CREATE TABLE d (s TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)
       INSERT INTO d SELECT substr('abcdefghijklmnopqrstuvwxyz', 1, 1 + abs(random()) % 26) FROM n;`,
    );
    const opened = openSqlitePath(deep);
    try {
      const root = opened.file.schema()[0]!.rootPage;
      expect(opened.file.count(root)).toBe(300_000);
      const estimate = opened.file.estimatedCount(root);
      expect(Math.abs(estimate - 300_000)).toBeLessThan(300_000 * 0.05);
      // Every leaf sampled: the count itself.
      expect(opened.file.estimatedCount(root, 100_000)).toBe(300_000);
    } finally {
      opened.close();
    }
  });

  it('counts an unbalanced table leaf by leaf instead of estimating it', () => {
    // The root's right-most child (an interior page) replaced by that page's right-most leaf: the tree
    // reaches every page at most once but its leaves lie at two depths.
    const path = sqlite3(
      'unbalanced.db',
      `CREATE TABLE d (s TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)
       INSERT INTO d SELECT 'row ' || i FROM n;`,
    );
    const bytes = Buffer.from(readFileSync(path));
    const pageSize = bytes.readUInt16BE(16);
    const root = sqliteFromBytes(bytes).file.schema()[0]!.rootPage;
    const at = (n: number) => (n - 1) * pageSize;
    expect(bytes[at(root)]).toBe(0x05);
    const last = bytes.readUInt32BE(at(root) + 8);
    expect(bytes[at(last)]).toBe(0x05);
    const leaf = bytes.readUInt32BE(at(last) + 8);
    expect(bytes[at(leaf)]).toBe(0x0d);
    bytes.writeUInt32BE(leaf, at(root) + 8);
    const opened = sqliteFromBytes(bytes);
    const counted = opened.file.count(root);
    expect(counted).toBeLessThan(300_000);
    expect(opened.file.estimatedCount(root)).toBe(counted);
  });

  it('reads UTF-16 databases', () => {
    const utf16 = sqlite3(
      'utf16.db',
      `PRAGMA encoding = 'UTF-16be'; CREATE TABLE u (s TEXT); INSERT INTO u VALUES ('Ålesund'), ('長崎'), ('plain');`,
    );
    const opened = openSqlitePath(utf16);
    const root = opened.file.schema()[0].rootPage;
    expect([...opened.file.rows(root)].map((r) => r.values[0])).toEqual(['Ålesund', '長崎', 'plain']);
    opened.close();
  });

  it('reads a GeoPackage written by ogr2ogr as SQLite does, geometry blobs included', () => {
    const csv = join(dir, 'points.csv');
    execFileSync('bash', [
      '-c',
      `{ echo 'id,name,x,y'; for i in $(seq 1 2500); do echo "$i,place $i,$((i % 360 - 180)).25,$((i % 170 - 85)).5"; done; } > ${csv}`,
    ]);
    const gpkg = join(dir, 'points.gpkg');
    gpkgFromCsv(csv, gpkg, 'points', ['X_POSSIBLE_NAMES=x', 'Y_POSSIBLE_NAMES=y', 'AUTODETECT_TYPE=YES']);
    const db = new SQL.Database(readFileSync(gpkg));
    const expected = sqlJsRows(db, 'SELECT rowid, * FROM points ORDER BY rowid');
    db.close();
    const width = (expected[0]?.length ?? 1) - 1;
    expect(expected.length).toBe(2500);
    expect(ours(gpkg, 'points', undefined, 0, new Array(width).fill(null))).toEqual(expected);
    // The same bytes held in memory read the same.
    const inMemory = sqliteFromBytes(readFileSync(gpkg));
    const root = inMemory.file.schema().find((e) => e.name === 'points')?.rootPage ?? 0;
    expect(inMemory.file.count(root)).toBe(2500);
    expect(Math.abs(inMemory.file.estimatedCount(root) - 2500)).toBeLessThan(2500 * 0.05);
  });

  it('refuses a truncated file and a file that is not SQLite', () => {
    const bytes = readFileSync(path);
    expect(() => sqliteFromBytes(bytes.subarray(0, 20_000))).toThrow(/truncated/);
    expect(() => sqliteFromBytes(Buffer.from('id,name\n1,a\n'.repeat(20)))).toThrow(SqliteFormatError);
    // A header that no longer tells the page count (an old writer): the missing page is found when read.
    const cut = Buffer.from(bytes.subarray(0, 20_480));
    cut.writeUInt32BE(0, 92);
    const opened = sqliteFromBytes(cut);
    const root = opened.file.schema().find((e) => e.name === 't')?.rootPage ?? 0;
    expect(() => [...opened.file.rows(root)]).toThrow(SqliteFormatError);
  });
});

describe('damaged SQLite files', () => {
  it('every damaged copy is read to its end or refused with a format error, never worse, whole or in part', () => {
    const path = sqlite3('damaged-source.db', MIXED);
    const original = readFileSync(path);
    // A seeded generator, so a failure names a reproducible copy.
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const outcomes = { read: 0, refused: 0 };
    for (let copy = 0; copy < 300; copy++) {
      const bytes = Buffer.from(original);
      // Damage a few bytes past the header, where pages, cells and records live.
      for (let k = 0; k < 1 + Math.floor(random() * 8); k++) {
        bytes[100 + Math.floor(random() * (bytes.length - 100))] = Math.floor(random() * 256);
      }
      const started = performance.now();
      try {
        const opened = sqliteFromBytes(bytes);
        for (const entry of opened.file.schema()) {
          if (entry.type !== 'table') continue;
          for (const _ of opened.file.rows(entry.rootPage)) {
            // read every row
          }
          opened.file.count(entry.rootPage);
          opened.file.estimatedCount(entry.rootPage);
          // As one of two threads sharing the table reads it: every other run of 50 rows passed over.
          for (const _ of opened.file.rowsWhere(entry.rootPage, 7, (i) => Math.floor(i / 50) % 2 === 1)) {
            // read every wanted row
          }
          // As a load's encoder reads it: records laid out in place, each of their values read.
          for (const r of opened.file.recordsWhere(entry.rootPage, 7, (i) => Math.floor(i / 50) % 2 === 0)) {
            if (typeof r !== 'number') for (let v = 0; v < r.count; v++) opened.file.value(r, v);
          }
        }
        outcomes.read++;
      } catch (e) {
        if (!(e instanceof SqliteFormatError)) throw new Error(`copy ${copy}: ${String(e)}`);
        outcomes.refused++;
      }
      expect(performance.now() - started).toBeLessThan(5000);
    }
    expect(outcomes.read + outcomes.refused).toBe(300);
    expect(outcomes.refused).toBeGreaterThan(0);
  });
});

describe('damaged B-trees', () => {
  /** The database with every child pointer of table t's root page set to the root's first child. */
  function rootChildrenAllFirst(): { bytes: Buffer; root: number } {
    const bytes = Buffer.from(readFileSync(sqlite3('shared-subtree.db', MIXED)));
    const pageSize = bytes.readUInt16BE(16);
    const opened = sqliteFromBytes(bytes);
    const root = opened.file.schema().find((e) => e.name === 't')?.rootPage ?? 0;
    const at = (root - 1) * pageSize;
    // An interior table page (0x05): cell count at +3, right-most pointer at +8, cell pointers from +12,
    // each cell starting with its left child's page number.
    expect(bytes[at]).toBe(0x05);
    const cells = bytes.readUInt16BE(at + 3);
    expect(cells).toBeGreaterThan(1);
    const first = bytes.readUInt32BE(at + bytes.readUInt16BE(at + 12));
    for (let c = 0; c < cells; c++) bytes.writeUInt32BE(first, at + bytes.readUInt16BE(at + 12 + c * 2));
    bytes.writeUInt32BE(first, at + 8);
    return { bytes, root };
  }

  it('refuses a tree whose children reach one page twice, instead of repeating its rows', () => {
    const { bytes, root } = rootChildrenAllFirst();
    const opened = sqliteFromBytes(bytes);
    const reached = /The table's B-tree reaches page \d+ twice/;
    expect(() => [...opened.file.rows(root)]).toThrow(reached);
    expect(() => opened.file.count(root)).toThrow(reached);
    expect(() => opened.file.estimatedCount(root)).toThrow(reached);
    expect(() => opened.file.longestValues(root, [1])).toThrow(reached);
  });

  it('refuses a record that claims more bytes than the file holds before making its buffer', () => {
    // A two-page database of 512-byte pages: page 2 a table leaf with one cell whose payload size
    // varint says 1,000,000 bytes (0xBD 0x84 0x40), rowid 1. Two pages hold at most 1,024 bytes.
    const leaf = new Uint8Array(512);
    leaf[0] = 0x0d;
    leaf[4] = 1;
    leaf[8] = 0;
    leaf[9] = 100;
    leaf.set([0xbd, 0x84, 0x40, 0x01], 100);
    const header = { pageSize: 512, usable: 512, pageCount: 2, encoding: 'utf-8' as const };
    const file = new SqliteFile(header, (n) => (n === 2 ? leaf : new Uint8Array(512)));
    expect(() => [...file.rows(2)]).toThrow('A record claims 1000000 bytes, more than the file holds.');
  });
});

describe('the GeoPackage/SQLite source over the decoder', () => {
  it('reads rows written before a column was added with that column’s default, as SQLite does', async () => {
    const path = sqlite3('late-column.db', MIXED);
    const db = await openSqlite(() => openSqlitePath(path));
    try {
      const layer = (await describeSqlite(db, { measure: true })).find((l) => l.table === 't');
      expect(layer?.key).toBe('id');
      expect(layer?.count).toBe(2729);
      const source = { ...layer!, columns: ['i', 'late'] };
      const got = [...sqliteBatches(db, source, null, { byteOffset: 0, rowNumber: 0 }, 1000)].flatMap(
        (b) => b.rows,
      );
      const reference = new SQL.Database(readFileSync(path));
      const expected = sqlJsRows(reference, 'SELECT i, late FROM t ORDER BY id');
      reference.close();
      expect(got).toEqual(expected);
      expect(got.at(-1)).toEqual([42, 'given']);
      expect(got[0]).toEqual([1, 'later']);
      // A row holding the added column before rows that do not: those get the default, not its value.
      const grown = (await describeSqlite(db, { measure: true })).find((l) => l.table === 'grown');
      const batches = [
        ...sqliteBatches(db, { ...grown!, columns: ['a', 'b'] }, null, { byteOffset: 0, rowNumber: 0 }, 1000),
      ];
      expect(batches.flatMap((b) => b.rows)).toEqual([
        ['one', 'set'],
        ['two', 'default'],
        ['three', 'default'],
      ]);
    } finally {
      db.close();
    }
  });

  it('finds the bounds of a table’s geometries as a full read’s geometries give them', async () => {
    const fold = (geometries: readonly unknown[]) =>
      unionBounds(
        geometries.map((g) =>
          g && typeof g === 'object' && !('reason' in g) ? geometryBounds(g as EsriGeometry) : null,
        ),
      );
    // ogr2ogr made towns.gpkg (test/fixtures/publish/sqlite): points, lines and polygons; the SpatiaLite and
    // WKB files hold the same layers in other geometry formats.
    let layersRead = 0;
    for (const file of ['towns.gpkg', 'towns-spatialite.sqlite', 'towns-wkb.sqlite']) {
      const path = join(import.meta.dirname, '../../fixtures/publish/sqlite', file);
      const db = await openSqlite(() => openSqlitePath(path));
      try {
        for (const layer of (await describeSqlite(db, { measure: true })).filter((l) => l.geometryColumn)) {
          const source = { ...layer, columns: layer.fields.map((f) => f.column) };
          const type = layerGeometryType(db, layer);
          if (!type) continue;
          const full = [...sqliteBatches(db, source, type, { byteOffset: 0, rowNumber: 0 }, 2)];
          const expected = fold(full.flatMap((b) => b.geometries ?? []));
          expect(expected).not.toBeNull();
          const bounds = sqliteGeometryBounds(db, source, type, 1);
          let yields = 0;
          let r = bounds.next();
          for (; !r.done; r = bounds.next()) yields++;
          expect(r.value).toEqual(expected);
          // One yield a record (every = 1).
          expect(yields).toBe(full.reduce((n, b) => n + b.rows.length, 0));
          layersRead++;
        }
      } finally {
        db.close();
      }
    }
    expect(layersRead).toBeGreaterThanOrEqual(7);

    // Points written by ogr2ogr, among them empty points and rows without a geometry: the bounds of the
    // others, from the CSV's own numbers.
    const csv = join(dir, 'bounded.csv');
    const lines = ['id,wkt'];
    let [xmin, ymin, xmax, ymax] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 1; i <= 3000; i++) {
      if (i % 97 === 0) lines.push(`${i},POINT EMPTY`);
      else if (i % 89 === 0) lines.push(`${i},`);
      else {
        const x = ((i * 7919) % 36000) / 100 - 180;
        const y = ((i * 104729) % 17000) / 100 - 85;
        [xmin, ymin, xmax, ymax] = [
          Math.min(xmin, x),
          Math.min(ymin, y),
          Math.max(xmax, x),
          Math.max(ymax, y),
        ];
        lines.push(`${i},POINT (${x} ${y})`);
      }
    }
    writeFileSync(csv, `${lines.join('\n')}\n`);
    const gpkg = join(dir, 'bounded.gpkg');
    gpkgFromCsv(csv, gpkg, 'pts', ['GEOM_POSSIBLE_NAMES=wkt'], ['-nlt', 'POINT']);
    const db = await openSqlite(() => openSqlitePath(gpkg));
    try {
      const layer = (await describeSqlite(db, { measure: true })).find((l) => l.table === 'pts');
      if (!layer) throw new Error('no layer pts');
      const source = { ...layer, columns: layer.fields.map((f) => f.column) };
      const bounds = sqliteGeometryBounds(db, source, 'esriGeometryPoint');
      let r = bounds.next();
      while (!r.done) r = bounds.next();
      expect(r.value).toEqual([xmin, ymin, xmax, ymax]);
    } finally {
      db.close();
    }
  });
});
