import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLayer } from '../../../activities/publish/layer-plan.js';
import type { ResumePoint } from '../../../activities/publish/layer-sources.js';
import { createRowEncoder } from '../../../activities/publish/row-encoder.js';
import { endSpares } from '../../../activities/publish/spare-threads.js';
import { openSqlite } from '../../../activities/publish/sqlite-catalog.js';
import {
  idleSqliteEncoderThreads,
  SqliteEncoderThread,
  type SqliteThreadBatch,
} from '../../../activities/publish/sqlite-encoder-thread.js';
import { type BatchShare, sqliteBatches } from '../../../activities/publish/sqlite-source.js';
import { sqliteSourceTables } from '../../../activities/publish/sqlite-tables.js';
import type { LayerPlan, PublishRequest } from '../../../db/schema/publish-request.js';

const ROWS = 45_000;
const targetSR = { wkid: 102100, latestWkid: 3857 };

const request: PublishRequest = {
  fileType: 'sqlite',
  sourceKey: 'k',
  sourceSize: 0,
  serviceName: 'points',
  sourceSR: null,
  targetSR,
  layers: [{ id: 0, name: 'points', location: { type: 'geometry' }, layerInfo: {} }],
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
};

async function drain(thread: SqliteEncoderThread): Promise<SqliteThreadBatch[]> {
  const out: SqliteThreadBatch[] = [];
  try {
    for (let b = await thread.next(); b; b = await thread.next()) out.push(b);
  } finally {
    await thread.close();
  }
  return out;
}

// A GeoPackage written by GDAL, read and encoded on the SQLite encoder thread and on this thread.
describe('the SQLite encoder thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-thread-'));
  const path = join(dir, 'points.gpkg');
  let plan: LayerPlan;
  let expected: { data: Buffer; loaded: number; rejected: unknown[]; next: unknown }[];

  beforeAll(async () => {
    const csv = ['id,name,value,lon,lat'];
    for (let i = 1; i <= ROWS; i++)
      csv.push(
        `${i},point ${i},${(i % 997) / 10},${(-87.9 + (i % 4500) / 10000).toFixed(5)},${(41.6 + (i % 3800) / 10000).toFixed(5)}`,
      );
    writeFileSync(join(dir, 'points.csv'), `${csv.join('\n')}\n`);
    execFileSync('ogr2ogr', [
      ...['-f', 'GPKG', path, join(dir, 'points.csv'), '-nln', 'points', '-a_srs', 'EPSG:4326'],
      ...['-oo', 'X_POSSIBLE_NAMES=lon', '-oo', 'Y_POSSIBLE_NAMES=lat', '-oo', 'AUTODETECT_TYPE=YES'],
    ]);
    const db = await openSqlite(readFileSync(path));
    const [table] = await sqliteSourceTables(db, request, 1000);
    plan = planLayer({
      serviceItemId: 'a'.repeat(32),
      layer: table.layer,
      sample: {
        headers: table.headers,
        rows: table.sampleRows,
        geometryType: table.geometryType,
        declaredFields: table.declaredFields,
      },
      source: table.source,
      sourceSR: { wkid: 4326 },
    });
    const encoder = createRowEncoder(plan, targetSR, { wkid: 4326 });
    if (plan.source.kind !== 'sqlite') throw new Error('not a sqlite source');
    expected = [...sqliteBatches(db, plan.source, plan.geometryType, { byteOffset: 0, rowNumber: 0 })].map(
      (b) => {
        const e = encoder.encode(b.rows, b.firstRowNumber, b.geometries);
        return { data: Buffer.from(e.data), loaded: e.loaded, rejected: e.rejected, next: b.next };
      },
    );
    db.close();
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const threadOf = (start: ResumePoint, share?: BatchShare) =>
    new SqliteEncoderThread({
      path,
      plan,
      targetSR,
      geometrySR: { wkid: 4326 },
      start,
      ...(share ? { share } : {}),
    });

  it('gives the same COPY bytes, counts and resume points as encoding on this thread', async () => {
    const batches = await drain(threadOf({ byteOffset: 0, rowNumber: 0 }));
    expect(batches.map((b) => b.rows)).toEqual([20_000, 20_000, 5_000]);
    expect(batches.reduce((n, b) => n + b.loaded, 0)).toBe(ROWS);
    expect(batches.map((b) => ({ loaded: b.loaded, rejected: b.rejected, next: b.next }))).toEqual(
      expected.map((e) => ({ loaded: e.loaded, rejected: e.rejected, next: e.next })),
    );
    // Buffers compared with equals: a deep comparison of megabytes element by element takes minutes.
    expect(batches.map((b, i) => Buffer.from(b.data).equals(expected[i].data))).toEqual([true, true, true]);
  }, 120_000);

  it('resumes after the key of a batch, with the rows after it only', async () => {
    const batches = await drain(threadOf(expected[0].next as { byteOffset: number; rowNumber: number }));
    expect(batches.map((b) => b.next)).toEqual([expected[1].next, expected[2].next]);
    const resumed = Buffer.concat(batches.map((b) => Buffer.from(b.data)));
    expect(resumed.equals(Buffer.concat([expected[1].data, expected[2].data]))).toBe(true);
  }, 120_000);

  it('shares the table among threads: batch k is thread k mod n’s, the same bytes and resume points', async () => {
    for (const parts of [2, 3]) {
      const shares = await Promise.all(
        Array.from({ length: parts }, (_, part) =>
          drain(threadOf({ byteOffset: 0, rowNumber: 0 }, { part, parts })),
        ),
      );
      // Thread t gives batches t, t + n, …; taken in turn they are the one reader's.
      expect(shares.map((s) => s.length)).toEqual(parts === 2 ? [2, 1] : [1, 1, 1]);
      const inTurn = expected.map((_, k) => shares[k % parts][Math.floor(k / parts)]);
      expect(inTurn.map((b) => ({ loaded: b.loaded, rejected: b.rejected, next: b.next }))).toEqual(
        expected.map((e) => ({ loaded: e.loaded, rejected: e.rejected, next: e.next })),
      );
      expect(inTurn.map((b, i) => Buffer.from(b.data).equals(expected[i].data))).toEqual([true, true, true]);
    }
    // Resumed after the first batch, two threads share the rest: batches 1 and 2 of the one reader.
    const resumed = await Promise.all(
      [0, 1].map((part) =>
        drain(threadOf(expected[0].next as { byteOffset: number; rowNumber: number }, { part, parts: 2 })),
      ),
    );
    expect(resumed.map((s) => s.map((b) => b.next))).toEqual([[expected[1].next], [expected[2].next]]);
    expect(Buffer.from(resumed[1][0].data).equals(expected[2].data)).toBe(true);
  }, 120_000);

  it('gives a batch in pieces that join up to it, also when the table ends on a piece', async () => {
    const db = await openSqlite(readFileSync(path));
    try {
      if (plan.source.kind !== 'sqlite') throw new Error('not a sqlite source');
      const source = plan.source;
      const read = (share?: BatchShare, pieceRows?: number) =>
        sqliteBatches(
          db,
          source,
          plan.geometryType,
          { byteOffset: 0, rowNumber: 0 },
          20_000,
          share,
          pieceRows,
        );
      // 45,000 rows: batches of 20,000, 20,000 and 5,000; pieces of 2,500 end the last batch on a piece.
      for (const pieceRows of [2000, 2500, 7000]) {
        for (const share of [undefined, { part: 1, parts: 2 }]) {
          const whole = [...read(share)];
          const joined: { rows: unknown[]; firstRowNumber: number; next: unknown; pieces: number }[] = [];
          let open: (typeof joined)[number] | null = null;
          for (const p of read(share, pieceRows)) {
            expect(p.rows.length).toBeLessThanOrEqual(pieceRows);
            open ??= { rows: [], firstRowNumber: p.firstRowNumber, next: null, pieces: 0 };
            open.rows.push(...p.rows);
            open.pieces++;
            if (!p.partial) {
              open.next = p.next;
              joined.push(open);
              open = null;
            }
          }
          expect(open).toBeNull();
          expect(joined.map((b) => [b.firstRowNumber, b.rows, b.next])).toEqual(
            whole.map((b) => [b.firstRowNumber, b.rows, b.next]),
          );
          expect(joined.some((b) => b.pieces > 1)).toBe(true);
        }
      }
    } finally {
      db.close();
    }
  });

  it('closes early without reading on, and reports a missing file as an error', async () => {
    const early = threadOf({ byteOffset: 0, rowNumber: 0 });
    expect((await early.next())?.rows).toBe(20_000);
    await early.close();
    await expect(early.next()).rejects.toThrow(/closed/);
    const missing = new SqliteEncoderThread({
      path: join(dir, 'none.gpkg'),
      plan,
      targetSR,
      geometrySR: { wkid: 4326 },
      start: { byteOffset: 0, rowNumber: 0 },
    });
    await expect(missing.next()).rejects.toThrow();
    await missing.close();
  }, 120_000);

  it('keeps a thread that read its table to the end for the next load, and no other', async () => {
    await endSpares();
    const from = { byteOffset: 0, rowNumber: 0 };
    try {
      const first = threadOf(from);
      const id = first.threadId;
      await drain(first);
      expect(idleSqliteEncoderThreads()).toEqual([id]);
      // The kept thread serves the next load, which gives the same bytes as a fresh one.
      const second = threadOf(from);
      expect(second.threadId).toBe(id);
      expect(idleSqliteEncoderThreads()).toEqual([]);
      const again = await drain(second);
      expect(again.map((b, i) => Buffer.from(b.data).equals(expected[i].data))).toEqual([true, true, true]);
      expect(again.map((b) => b.next)).toEqual(expected.map((e) => e.next));
      expect(idleSqliteEncoderThreads()).toEqual([id]);
      // A load closed before the table's end: its thread exits and is not kept.
      const early = threadOf(from);
      expect(early.threadId).toBe(id);
      expect((await early.next())?.rows).toBe(20_000);
      await early.close();
      expect(idleSqliteEncoderThreads()).toEqual([]);
      // A load that failed: neither.
      const missing = new SqliteEncoderThread({
        path: join(dir, 'none.gpkg'),
        plan,
        targetSR,
        geometrySR: { wkid: 4326 },
        start: from,
      });
      expect(missing.threadId).not.toBe(id);
      await expect(missing.next()).rejects.toThrow();
      await missing.close();
      expect(idleSqliteEncoderThreads()).toEqual([]);
    } finally {
      await endSpares();
    }
  }, 120_000);
});
