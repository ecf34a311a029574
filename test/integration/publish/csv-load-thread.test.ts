/**
 * A delimited file's load on PostgreSQL runs in the CSV load thread, which reads the file from MinIO
 * and copies on a connection of its own; on PGlite the CSV encoder thread encodes the batches the
 * activity reads and copies. Either way quoted fields (commas, doubled quotes, line breaks inside),
 * non-ASCII text, blank lines and unusable rows land exactly as written, each row once under its row
 * number; and a load resumed from one of its heartbeats (a ranged read from the middle of the file)
 * ends with the same table. Where the API kept the upload's own file for the object (the API and the
 * worker in one process), either path reads that file instead of the object.
 */

import { once } from 'node:events';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idleCsvLoadThreads } from '../../../activities/publish/csv-load-thread.js';
import type { LoadResult } from '../../../activities/publish/load-layer.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { featureTableName, featureTableStats } from '../../../db/repositories/feature-tables.js';
import {
  KEPT_UPLOAD_PREFIX,
  keepUploadedCopy,
  keepUploadsForThisProcess,
  takeKeptCopy,
} from '../../../infra/readers/sqlite-spool.js';
import { SHAPE_TEXT } from '../../../lib/query/plan-statements.js';
import { stack } from '../support/portal-client.js';
import { insertCsvPublishJob, stackPublishActivities, stackStore } from './worker-process.js';

const ROWS = 120_000;
/** The CSV load thread's entry (csv-load-thread.ts): its idle threads are listed by this URL. */
/** Where the table is cut into parts (PostgreSQL only; PGlite keeps one table whatever it is given). */
const PART_ROWS = 25_000;

/** Row i's name: every 50th is quoted with a comma, a doubled quote and a line break inside. */
const nameOf = (i: number) =>
  i % 50 === 0 ? `Line one, "${i}"\nline two` : i % 7 === 0 ? `Café ${i} – Zürich` : `point ${i}`;
const quoted = (s: string) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
/** Every 1000th row has an unusable latitude. */
const usable = (i: number) => i % 1000 !== 0;

async function writeCsv(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,name,value,lat,lon\n');
  for (let i = 1; i <= ROWS; i++) {
    const lat = usable(i) ? (41.6 + (i % 3800) / 10000).toFixed(5) : 'n/a';
    const lon = (-87.9 + (i % 4500) / 10000).toFixed(5);
    let line = `${i},${quoted(nameOf(i))},${(i % 997) / 10},${lat},${lon}\n`;
    // Blank lines are not records: row numbers (object ids) go on from the record before.
    if (i % 10_000 === 0) line += '\n';
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

describe.each([
  ['the load thread on PostgreSQL', 'postgres', 'd', undefined],
  ['the load thread on PostgreSQL into a table in parts', 'postgres', 'f', PART_ROWS],
  ['the encoder thread on PGlite', 'pglite', 'e', PART_ROWS],
] as const)('a CSV loaded by %s', (_, kind, pad, partRows) => {
  const dir = mkdtempSync(join(tmpdir(), 'csv-load-thread-'));
  const serviceItemId = `${Date.now().toString(16)}`.padEnd(32, pad);
  const jobId = `thread-${serviceItemId}`;
  const table = featureTableName(serviceItemId, 0);
  let database: DatabaseHandle;
  let activities: ReturnType<typeof stackPublishActivities>;
  const path = join(dir, 'places.csv');

  beforeAll(async () => {
    const s = stack();
    database =
      kind === 'postgres'
        ? await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 4 })
        : await openDatabase({ pgliteDir: join(dir, 'pglite') });
    if (kind === 'pglite') await database.migrate();
    expect(database.kind).toBe(kind);
    await writeCsv(path);
    await insertCsvPublishJob(database, path, jobId, serviceItemId);
    activities = stackPublishActivities(database, undefined, partRows ? { partRows } : {});
    await new MockActivityEnvironment().run(() => activities.planPublish(jobId));
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const expectedUsable = ROWS - ROWS / 1000;
  const expectedIdSum = (ROWS * (ROWS + 1)) / 2 - (1000 * (ROWS / 1000) * (ROWS / 1000 + 1)) / 2;

  async function checkTable() {
    const [counts] = await database.rows<{ n: number; ids: number; off: number; sum: string }>(
      sql.raw(`select count(*)::int as n, count(distinct objectid)::int as ids,
        count(*) filter (where objectid <> a_0)::int as off, sum(a_0)::text as sum from "${table}"`),
    );
    expect(counts).toEqual({ n: expectedUsable, ids: expectedUsable, off: 0, sum: String(expectedIdSum) });
    const picks = [1, 7, 50, 700, 9_999, 10_001, 10_050, 99_950, ROWS - 1];
    const rows = await database.rows<{ objectid: number; a_1: string; shape: string }>(
      sql.raw(
        `select objectid, a_1, ${SHAPE_TEXT} from "${table}" where objectid in (${picks.join(',')}) order by 1`,
      ),
    );
    expect(rows.map((r) => [r.objectid, r.a_1])).toEqual(picks.map((i) => [i, nameOf(i)]));
    // The point in Web Mercator, from the row's own longitude.
    const lon = -87.9 + (7 % 4500) / 10000;
    expect(JSON.parse(rows[1].shape).x).toBeCloseTo((lon * Math.PI * 6378137) / 180, 3);
  }

  /**
   * The load's own count and extent of what it copied (copy-stats.ts), which finishLayer takes instead of
   * scanning: PostgreSQL's figures over the table exactly, and about the extent of the usable rows'
   * coordinates in Web Mercator by its formula.
   */
  async function checkLoadedStats(result: LoadResult) {
    const scanned = await featureTableStats(database, table);
    expect(result.stats).toEqual({ rows: scanned.count, extent: scanned.extent, longest: [] });
    expect(result.stats?.rows).toBe(expectedUsable);
    let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 1; i <= ROWS; i++) {
      if (!usable(i)) continue;
      const lon = Number((-87.9 + (i % 4500) / 10000).toFixed(5));
      const lat = Number((41.6 + (i % 3800) / 10000).toFixed(5));
      [w, s, e, n] = [Math.min(w, lon), Math.min(s, lat), Math.max(e, lon), Math.max(n, lat)];
    }
    const r = 6378137;
    const x = (lon: number) => (lon * Math.PI * r) / 180;
    const y = (lat: number) => r * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
    const want = [x(w), y(s), x(e), y(n)];
    const extent = result.stats?.extent ?? [];
    expect(extent).toHaveLength(4);
    for (let k = 0; k < 4; k++) expect(extent[k]).toBeCloseTo(want[k], 3);
  }

  const beats: { byteOffset: number; rowNumber: number; rowsLoaded: number }[] = [];

  it('loads every usable row once, under its row number, with its text as written', async () => {
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000 });
    env.on('heartbeat', (d: (typeof beats)[number]) => beats.push(d));
    const result = (await env.run(() => activities.loadLayer(jobId, 0))) as LoadResult;
    expect(result).toMatchObject({ rowsRead: ROWS, rowsLoaded: expectedUsable, rowsRejected: ROWS / 1000 });
    expect(result.reasons[0]).toMatch(/^Row 1000: /);
    await checkTable();
    await checkLoadedStats(result);
    // Resume points move forward batch by batch, and each is a record boundary the file's bytes agree on.
    expect(beats.length).toBeGreaterThan(2);
    for (let k = 1; k < beats.length; k++) {
      expect(beats[k].byteOffset).toBeGreaterThan(beats[k - 1].byteOffset);
      expect(beats[k].rowNumber).toBeGreaterThan(beats[k - 1].rowNumber);
    }
    expect(beats.at(-1)?.rowNumber).toBe(ROWS);
    // The load thread is kept for the next load as soon as its load ended well (a fresh spare would
    // start a second later).
    if (kind === 'postgres') {
      keptThreads = idleCsvLoadThreads();
      expect(keptThreads).toHaveLength(1);
    }
  }, 120_000);

  let keptThreads: number[] = [];

  /** The parts the table was cut into and their object id bounds, from the catalog (none: one table). */
  const partsOf = async () =>
    database.rows<{ name: string; bound: string; indexes: number; stats: boolean }>(
      sql.raw(`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound,
          (select count(*)::int from pg_index x where x.indrelid = c.oid and x.indisvalid) as indexes,
          exists (select 1 from pg_statistic s where s.starelid = c.oid) as stats
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = '"${table}"'::regclass order by c.relname`),
    );

  it(
    partRows && kind === 'postgres'
      ? 'is cut into parts by object id, each indexed and analyzed by the end of the load'
      : 'is one table',
    async () => {
      if (!partRows || kind === 'pglite') {
        if (kind === 'postgres') expect(await partsOf()).toEqual([]);
        const [{ relkind }] = await database.rows<{ relkind: string }>(
          sql.raw(`select relkind::text as relkind from pg_class where relname = '${table}'`),
        );
        expect(relkind).toBe('r');
        return;
      }
      // About 5.3 parts' rows by planning's sample (its records are 41-48 bytes): five parts, the last
      // half the size of the others.
      const parts = await partsOf();
      expect(parts.map((p) => p.name)).toEqual([0, 1, 2, 3, 4].map((k) => `${table}_p${k}`));
      expect(parts[0].bound).toMatch(/^FOR VALUES FROM \(MINVALUE\) TO \(\d+\)$/);
      expect(parts[4].bound).toMatch(/^FOR VALUES FROM \(\d+\) TO \(MAXVALUE\)$/);
      for (const p of parts) expect(p).toMatchObject({ indexes: 2, stats: true });
      // Every row is in the part its object id says, and every part holds some.
      const spread = await database.rows<{ part: string; n: number; lo: number; hi: number }>(
        sql.raw(`select tableoid::regclass::text as part, count(*)::int as n, min(objectid) as lo,
        max(objectid) as hi from "${table}" group by 1 order by lo`),
      );
      expect(spread.map((r) => r.part)).toEqual(parts.map((p) => p.name));
      for (let k = 1; k < spread.length; k++) expect(spread[k].lo).toBeGreaterThan(spread[k - 1].hi);
      expect(spread.reduce((a, r) => a + r.n, 0)).toBe(expectedUsable);
      // Each of the five parts is sampled by a fifth of the statistics target: a histogram of object
      // ids with that many buckets.
      const [{ target }] = await database.rows<{ target: number }>(
        sql.raw(`select current_setting('default_statistics_target')::int as target`),
      );
      const histograms = await database.rows<{ name: string; bounds: number }>(
        sql.raw(`select tablename::text as name, array_length(histogram_bounds, 1) as bounds from pg_stats
          where tablename::text like '${table}_p%' and attname = 'objectid' order by 1`),
      );
      const share = Math.max(10, Math.ceil(target / 5));
      expect(histograms).toEqual(parts.map((p) => ({ name: p.name, bounds: share + 1 })));
    },
  );

  it('resumed from a heartbeat in the middle, ends with the same table', async () => {
    const middle = beats[Math.floor(beats.length / 2)];
    expect(middle.rowNumber).toBeGreaterThan(0);
    expect(middle.rowNumber).toBeLessThan(ROWS);
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000, heartbeatDetails: middle });
    const result = (await env.run(() => activities.loadLayer(jobId, 0))) as LoadResult;
    expect(result).toMatchObject({ rowsRead: ROWS, rowsLoaded: expectedUsable, rowsRejected: ROWS / 1000 });
    await checkTable();
    // The figures carried in the heartbeat and added to after it.
    expect(middle).toHaveProperty('stats.rows', middle.rowsLoaded);
    await checkLoadedStats(result);
    // A resume point heartbeated without figures (by a load from before they were told) leaves them
    // untold: finishLayer scans the table.
    const { stats: _told, ...untold } = middle as typeof middle & { stats?: unknown };
    const older = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000, heartbeatDetails: untold });
    const again = (await older.run(() => activities.loadLayer(jobId, 0))) as LoadResult;
    expect(again).toMatchObject({ rowsRead: ROWS, rowsLoaded: expectedUsable });
    expect(again.stats).toBeUndefined();
    await checkTable();
    // The second load ran on the thread the first one left.
    if (kind === 'postgres') expect(idleCsvLoadThreads()).toEqual(keptThreads);
    if (partRows && kind === 'postgres') {
      const parts = await partsOf();
      expect(parts).toHaveLength(5);
      for (const p of parts) expect(p).toMatchObject({ indexes: 2, stats: true });
    }
  }, 120_000);

  it("reads the upload's file the API kept for the object in place of the object, and lets it go", async () => {
    const store = stackStore();
    const sourceKey = `publish/${jobId}/source`;
    // A kept file of the object's size whose row 8 reads otherwise: the table tells which was read.
    const bytes = readFileSync(path);
    const at = bytes.indexOf(',point 8,');
    expect(at).toBeGreaterThan(0);
    bytes.write(',POINT 8,', at, 'latin1');
    const upload = join(dir, 'upload.csv');
    writeFileSync(upload, bytes);
    keepUploadsForThisProcess();
    await keepUploadedCopy(store, sourceKey, upload);
    const nameOf8 = async () =>
      (await database.rows<{ a_1: string }>(sql.raw(`select a_1 from "${table}" where objectid = 8`)))[0]
        ?.a_1;
    const load = () =>
      new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000 }).run(() => activities.loadLayer(jobId, 0));
    expect(await load()).toMatchObject({ rowsRead: ROWS, rowsLoaded: expectedUsable });
    expect(await nameOf8()).toBe('POINT 8');
    // Taken by the load and removed after it: the next load reads the object again.
    expect(await takeKeptCopy(store, sourceKey)).toBeUndefined();
    expect(await load()).toMatchObject({ rowsRead: ROWS, rowsLoaded: expectedUsable });
    expect(await nameOf8()).toBe('point 8');
    await checkTable();
    // A copy kept for an object replaced since (another size and ETag) is not read, and is removed.
    await keepUploadedCopy(store, sourceKey, upload);
    await store.put(sourceKey, Buffer.from('id,name,value,lat,lon\n'), 22);
    const kept = readdirKept(dir);
    expect(kept).toHaveLength(1);
    expect(await takeKeptCopy(store, sourceKey)).toBeUndefined();
    expect(existsSync(kept[0])).toBe(false);
    await store.put(sourceKey, readFileSync(path), statSync(path).size);
  }, 120_000);

  it("is indexed and measured by finishLayer, the parts' indexes attached to the table's", async () => {
    const finished = await new MockActivityEnvironment().run(() => activities.finishLayer(jobId, 0));
    expect(finished).toEqual({ layerId: 0, featureCount: expectedUsable });
    if (kind !== 'postgres') return;
    const indexes = await database.rows<{ name: string; valid: boolean; parts: number }>(
      sql.raw(`select x.indexrelid::regclass::text as name, x.indisvalid as valid,
          (select count(*)::int from pg_inherits i where i.inhparent = x.indexrelid) as parts
        from pg_index x where x.indrelid = '"${table}"'::regclass order by 1`),
    );
    expect(indexes).toEqual(
      [`${table}_oid`, `${table}_pt`].map((name) => ({
        name,
        valid: true,
        parts: partRows ? 5 : 0,
      })),
    );
    // A box query through the table finds the rows a scan of their own coordinates (as the file writes
    // them) finds; the box's edges lie between the file's grid of 0.0001 degrees.
    const [w, south, e, north] = [-87.80005, 41.70005, -87.60005, 41.80005];
    let expected = 0;
    for (let i = 1; i <= ROWS; i++) {
      const lon = Number((-87.9 + (i % 4500) / 10000).toFixed(5));
      const lat = Number((41.6 + (i % 3800) / 10000).toFixed(5));
      if (usable(i) && lon >= w && lon <= e && lat >= south && lat <= north) expected++;
    }
    const merc = (lon: number, lat: number) => [
      (lon * Math.PI * 6378137) / 180,
      Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) * 6378137,
    ];
    const [x0, y0] = merc(w, south);
    const [x1, y1] = merc(e, north);
    const [{ n }] = await database.rows<{ n: number }>(
      sql.raw(
        `select count(*)::int as n from "${table}" where ("bbox"[0]) <@ box(point(${x0},${y0}), point(${x1},${y1}))`,
      ),
    );
    expect(n).toBe(expected);
  }, 120_000);
});

/** The directories keepUploadedCopy made beside the uploads in `dir`. */
function readdirKept(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.startsWith(KEPT_UPLOAD_PREFIX))
    .map((n) => join(dir, n));
}
