import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CopyBinaryWriter } from '../../../activities/publish/copy-binary.js';
import { planLayer } from '../../../activities/publish/layer-plan.js';
import type { ResumePoint } from '../../../activities/publish/layer-sources.js';
import { createRowEncoder } from '../../../activities/publish/row-encoder.js';
import { openSqlite, type SqliteDatabase } from '../../../activities/publish/sqlite-catalog.js';
import {
  type BatchShare,
  sqliteBatches,
  sqliteRecordBatches,
} from '../../../activities/publish/sqlite-source.js';
import { sqliteSourceTables } from '../../../activities/publish/sqlite-tables.js';
import type { LayerPlan, PublishRequest } from '../../../db/schema/publish-request.js';
import { openSqlitePath } from '../../../infra/readers/sqlite-pages.js';
import type { EsriFieldType } from '../../../lib/ingest/index.js';

const targetSR = { wkid: 102100, latestWkid: 3857 };
const request = (fileType: PublishRequest['fileType']): PublishRequest => ({
  fileType,
  sourceKey: 'k',
  sourceSize: 0,
  serviceName: 's',
  sourceSR: null,
  targetSR,
  layers: [{ id: 0, name: 's', location: { type: 'geometry' }, layerInfo: {} }],
  service: {
    description: '',
    copyrightText: '',
    maxRecordCount: -1,
    hasStaticData: false,
    capabilities: 'Query',
    hasAttachments: false,
    editorTrackingInfo: {},
    buildInitialCache: false,
    outputType: '',
  },
  persistErrorRecordsForReview: false,
});

const dir = mkdtempSync(join(tmpdir(), 'sqlite-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Every storage class and integer width, ASCII and non-ASCII text, text with a NUL, text that starts with a
// blank, text past the field widths below, text overflowing 512-byte pages, blobs (empty, short, long), dates
// as text, NULLs, rowid gaps and a column added (with a default) after rows were written.
const MIXED = `
PRAGMA page_size = 512;
CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB, d TEXT);
WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 3000)
INSERT INTO t SELECT k,
  CASE k % 9 WHEN 0 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN -k WHEN 3 THEN k * 100000 WHEN 4 THEN k * 10000000000
    WHEN 5 THEN -9223372036854775807 + k WHEN 6 THEN NULL WHEN 7 THEN k * 300 ELSE 8388607 + k END,
  CASE WHEN k % 4 = 0 THEN NULL WHEN k % 13 = 0 THEN '12.5' ELSE k / 7.0 END,
  CASE WHEN k % 50 = 0 THEN printf('%.*c', 1500 + k, 'x') WHEN k % 3 = 0 THEN 'Zürich ' || k || ' 東京'
    WHEN k % 17 = 0 THEN ' blank ' || k WHEN k % 19 = 0 THEN 'nul' || char(0) || k WHEN k % 23 = 0 THEN ''
    WHEN k % 29 = 0 THEN k ELSE 'row ' || k END,
  CASE WHEN k % 10 = 0 THEN randomblob(k % 700) WHEN k % 7 = 0 THEN x'' ELSE NULL END,
  CASE k % 5 WHEN 0 THEN '2024-03-0' || (k % 9 + 1) WHEN 1 THEN '03/0' || (k % 9 + 1) || '/2021'
    WHEN 2 THEN 'not a date ' || k WHEN 3 THEN NULL ELSE '2020-01-01T10:00:0' || (k % 10) || 'Z' END
FROM n;
DELETE FROM t WHERE id % 11 = 0;
ALTER TABLE t ADD COLUMN late TEXT DEFAULT 'later';
INSERT INTO t (id, i, late) VALUES (5000, 42, 'given');
`;

function sqlite3(name: string, sql: string): string {
  const path = join(dir, name);
  execFileSync('sqlite3', [path], { input: sql });
  return path;
}

async function planOf(db: SqliteDatabase, fileType: PublishRequest['fileType'], name: string) {
  const tables = await sqliteSourceTables(db, request(fileType), 1000);
  const table = tables.find((t) => t.source.kind === 'sqlite' && t.source.table === name);
  if (!table) throw new Error(`no table ${name}: ${tables.map((t) => t.headers)}`);
  return planLayer({
    serviceItemId: 'a'.repeat(32),
    layer: table.layer,
    sample: {
      headers: table.headers,
      rows: table.sampleRows,
      geometryType: table.geometryType,
      declaredFields: table.declaredFields,
    },
    source: table.source,
    sourceSR: table.sourceSR ?? { wkid: 4326 },
  });
}

interface Piece {
  rows: number;
  partial: boolean;
  firstRowNumber: number;
  next: ResumePoint;
  loaded: number;
  rejected: unknown[];
  data: string;
}

/** The pieces the row reader gives, each encoded by `encode` (the reference). */
function byRows(db: SqliteDatabase, plan: LayerPlan, start: ResumePoint, size: number, share?: BatchShare) {
  if (plan.source.kind !== 'sqlite') throw new Error('not sqlite');
  const encoder = createRowEncoder(plan, targetSR, plan.sourceSR);
  const out: Piece[] = [];
  for (const b of sqliteBatches(db, plan.source, plan.geometryType, start, size, share, 70)) {
    const e = encoder.encode(b.rows, b.firstRowNumber, b.geometries);
    out.push({
      rows: b.rows.length,
      partial: b.partial === true,
      firstRowNumber: b.firstRowNumber,
      next: b.next,
      loaded: e.loaded,
      rejected: e.rejected,
      data: Buffer.from(e.data).toString('hex'),
    });
  }
  return out;
}

/** The same pieces encoded record by record as read. */
function byRecords(
  db: SqliteDatabase,
  plan: LayerPlan,
  start: ResumePoint,
  size: number,
  share?: BatchShare,
) {
  if (plan.source.kind !== 'sqlite') throw new Error('not sqlite');
  const encoder = createRowEncoder(plan, targetSR, plan.sourceSR);
  let w: CopyBinaryWriter | null = null;
  const into = () => {
    w ??= new CopyBinaryWriter(256);
    return w;
  };
  const out: Piece[] = [];
  for (const p of sqliteRecordBatches(
    db,
    plan.source,
    plan.geometryType,
    start,
    encoder,
    into,
    size,
    share,
    70,
  )) {
    const data = Buffer.from((w ?? new CopyBinaryWriter(64)).finish()).toString('hex');
    w = null;
    out.push({
      rows: p.rows,
      partial: p.partial === true,
      firstRowNumber: p.firstRowNumber,
      next: p.next,
      loaded: p.loaded,
      rejected: p.rejected,
      data,
    });
  }
  return out;
}

/** The plan with its fields given other types and widths (the rows then convert, or are rejected). */
function retyped(plan: LayerPlan, type: (i: number) => EsriFieldType, length?: number): LayerPlan {
  return {
    ...plan,
    fields: plan.fields.map((f, i) => {
      const { length: _, ...rest } = f;
      const t = type(i);
      return t === 'esriFieldTypeString' && length ? { ...rest, type: t, length } : { ...rest, type: t };
    }),
  };
}

describe('SQLite records encoded as read, straight from the page', () => {
  it('give the row reader’s COPY bytes, counts, rejections and resume points on a table of every kind of cell', async () => {
    const path = sqlite3('mixed.db', MIXED);
    const db = await openSqlite(readFileSync(path));
    // The file read as the load threads read it: blocks let go reused for later reads, the pages the
    // reader holds copied (blocks of one 512-byte page here: the eight kept are let go all the time, and a record whose overflow runs over more pages than that lets its own leaf's block go).
    const recycled = await openSqlite(() => openSqlitePath(path, { recycleBlocks: true, blockBytes: 512 }));
    try {
      const planned = await planOf(db, 'sqlite', 't');
      expect(planned.fields.map((f) => f.name)).toEqual(['i', 'r', 's', 'd', 'late']);
      // The reader also reads the blob column (cells as hex) and the rowid key's, for fields of their own.
      if (planned.source.kind !== 'sqlite') throw new Error('not sqlite');
      const columns = [...planned.source.columns, 'b', 'id'];
      const extra = ['b', 'id'].map((c, k) => ({
        ...planned.fields[2],
        name: c,
        alias: c,
        sourceIndex: columns.indexOf(c),
        column: `a_${90 + k}`,
      }));
      const plan: LayerPlan = {
        ...planned,
        source: { ...planned.source, columns },
        fields: [...planned.fields, ...extra],
      };
      const types: EsriFieldType[] = [
        'esriFieldTypeString',
        'esriFieldTypeInteger',
        'esriFieldTypeSmallInteger',
        'esriFieldTypeBigInteger',
        'esriFieldTypeDouble',
        'esriFieldTypeSingle',
        'esriFieldTypeDate',
        'esriFieldTypeGUID',
      ];
      const plans = [
        plan,
        retyped(plan, () => 'esriFieldTypeString'),
        retyped(plan, () => 'esriFieldTypeString', 9),
        ...types.map((t) => retyped(plan, () => t)),
        retyped(plan, (i) => types[i % types.length]),
        retyped(plan, (i) => types[(i + 3) % types.length], 12),
      ];
      let rejected = 0;
      let loaded = 0;
      for (const p of plans) {
        for (const [size, share] of [
          [500, undefined],
          [500, { part: 1, parts: 2 }],
          [300, { part: 2, parts: 3 }],
        ] as const) {
          const expected = byRows(db, p, { byteOffset: 0, rowNumber: 0 }, size, share);
          expect(byRecords(db, p, { byteOffset: 0, rowNumber: 0 }, size, share)).toEqual(expected);
          expect(byRecords(recycled, p, { byteOffset: 0, rowNumber: 0 }, size, share)).toEqual(expected);
          // Resumed after the first whole batch (its last key and row count).
          const resume = expected.find((e) => !e.partial)?.next as ResumePoint;
          expect(byRecords(db, p, resume, size, share)).toEqual(byRows(db, p, resume, size, share));
          for (const e of expected) {
            rejected += e.rejected.length;
            loaded += e.loaded;
          }
        }
      }
      // Both ways were taken: rows stored and rows refused (every plan over the whole table).
      expect(loaded).toBeGreaterThan(10_000);
      expect(rejected).toBeGreaterThan(1_000);
    } finally {
      db.close();
      recycled.close();
    }
  }, 60_000);

  it('give the row reader’s bytes for the point, line, polygon and attribute tables of GeoPackage and SpatiaLite files', async () => {
    const cases: [string, PublishRequest['fileType'], string[]][] = [
      ['towns.gpkg', 'sqlite', ['places', 'roads', 'parcels', 'inspections']],
      ['towns-spatialite.sqlite', 'sqlite', ['places', 'roads', 'parcels']],
      ['towns-wkb.sqlite', 'sqlite', ['places', 'roads', 'parcels']],
    ];
    let features = 0;
    for (const [file, fileType, names] of cases) {
      const path = `test/fixtures/publish/sqlite/${file}`;
      const db = await openSqlite(readFileSync(path));
      const recycled = await openSqlite(() => openSqlitePath(path, { recycleBlocks: true, blockBytes: 1 }));
      try {
        for (const name of names) {
          const plan = await planOf(db, fileType, name);
          const expected = byRows(db, plan, { byteOffset: 0, rowNumber: 0 }, 20_000);
          expect(expected.reduce((n, e) => n + e.rows, 0)).toBeGreaterThan(0);
          expect(byRecords(db, plan, { byteOffset: 0, rowNumber: 0 }, 20_000)).toEqual(expected);
          // Blocks of one page each, let go and reused as the reader goes.
          expect(byRecords(recycled, plan, { byteOffset: 0, rowNumber: 0 }, 20_000)).toEqual(expected);
          features += expected.reduce((n, e) => n + e.loaded, 0);
        }
      } finally {
        db.close();
        recycled.close();
      }
    }
    expect(features).toBeGreaterThan(0);
  });
});
