/**
 * The published length of a GeoPackage text column declared without a width: planning no longer reads
 * every row for it, so the finished layer takes the longest value loaded (in bytes, at least 256).
 * Here a load is resumed mid-file after a first attempt, as Temporal retries one: the longest value
 * sits in a row only the first attempt read, and must still set the length. A publish given analyze's
 * field lengths (publishParameters) ends with the same lengths. The GeoPackage is written by ogr2ogr
 * from a generated CSV; the expected lengths are computed by sqlite3 from the file.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeSqlite } from '../../../activities/publish/analyze-tables.js';
import type { LoadProgress, LoadResult } from '../../../activities/publish/load-layer.js';
import { measuredTextFields } from '../../../activities/publish/sqlite-text-widths.js';
import { parsePublishParameters } from '../../../api/publish/publish-parameters.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { featureTableName, featureTableStats } from '../../../db/repositories/feature-tables.js';
import { findJob, insertJob } from '../../../db/repositories/jobs.js';
import { insertService, listLayers } from '../../../db/repositories/services.js';
import type { PublishPlan } from '../../../db/schema/publish-request.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import { publishWorkflowId } from '../../../workflows/messages.js';
import { stack } from '../support/portal-client.js';
import { stackPublishActivities, stackStore } from './worker-process.js';

const ROWS = 60_000;
/** In the first of three 20,000-row batches: read by the first attempt only. */
const LONG_NOTE_ROW = 7;
/** In the last batch: read by both attempts. */
const LONG_REMARK_ROW = 45_000;
const LONG_NOTE = `${'Überschwemmungsgebiet; '.repeat(30)}end`;
const LONG_REMARK = 'r'.repeat(300);

async function writeCsv(path: string, rows = ROWS) {
  const out = createWriteStream(path);
  out.write('id,name,note,remark,lat,lon\n');
  for (let i = 1; i <= rows; i++) {
    const note = i === LONG_NOTE_ROW ? LONG_NOTE : `note ${i % 13}`;
    const remark = i === LONG_REMARK_ROW ? LONG_REMARK : i % 5 === 0 ? '' : `r${i}`;
    const lat = (41.6 + (i % 3800) / 10000).toFixed(5);
    const lon = (-87.9 + (i % 4500) / 10000).toFixed(5);
    if (!out.write(`${i},point ${i},${note},${remark},${lat},${lon}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function writeGeoPackage(csv: string, gpkg: string) {
  execFileSync('ogr2ogr', [
    ...['-f', 'GPKG', gpkg, csv, '-nln', 'points', '-a_srs', 'EPSG:4326'],
    ...['-oo', 'X_POSSIBLE_NAMES=lon', '-oo', 'Y_POSSIBLE_NAMES=lat', '-oo', 'AUTODETECT_TYPE=YES'],
  ]);
}

/** The longest value of a column in UTF-8 bytes, computed by sqlite3 from the file. */
const sqliteLongest = (file: string, column: string) =>
  Number(
    execFileSync('sqlite3', [file, `select max(length(cast("${column}" as blob))) from points`])
      .toString()
      .trim(),
  );

describe('text widths a GeoPackage leaves undeclared, measured on the loaded rows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpkg-length-'));
  const path = join(dir, 'points.gpkg');
  const stamp = Date.now().toString(16);
  let database: DatabaseHandle;
  let store: ObjectStore;
  let activities: ReturnType<typeof stackPublishActivities>;

  async function insertSqliteJob(
    jobId: string,
    serviceItemId: string,
    fields?: Record<string, unknown>[],
    file = path,
  ) {
    const s = stack();
    const sourceKey = `publish/${jobId}/source`;
    await store.put(sourceKey, createReadStream(file), statSync(file).size);
    const checked = parsePublishParameters({
      fileType: 'sqlite',
      parameters: {
        name: `gpkg_length_${serviceItemId.slice(0, 12)}`,
        layerInfo: { capabilities: 'Query', ...(fields ? { fields } : {}) },
      },
      buildInitialCache: false,
      outputType: '',
    });
    const now = Date.now();
    await insertService(database.db, {
      serviceItemId,
      name: checked.serviceName,
      owner: s.admin.username,
      status: 'processing',
      definition: {},
      created: now,
      modified: now,
    });
    await insertJob(database.db, {
      id: jobId,
      serviceItemId,
      owner: s.admin.username,
      fileType: 'sqlite',
      workflowId: publishWorkflowId(jobId),
      status: 'processing',
      request: { ...checked, sourceKey, sourceSize: statSync(file).size },
      created: now,
      modified: now,
    });
  }

  const publishedLengths = async (serviceItemId: string) => {
    const [layer] = await listLayers(database.db, serviceItemId);
    if (!layer) throw new Error('no layer was published');
    const fields = (layer.definition as { fields: { name: string; length?: number }[] }).fields;
    return Object.fromEntries(
      fields.filter((f) => ['name', 'note', 'remark'].includes(f.name)).map((f) => [f.name, f.length]),
    );
  };

  let expected: Record<string, number>;

  beforeAll(async () => {
    const s = stack();
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 4 });
    store = stackStore();
    activities = stackPublishActivities(database, store);
    const csv = join(dir, 'points.csv');
    await writeCsv(csv);
    writeGeoPackage(csv, path);
    const declared = execFileSync('sqlite3', [path, "select name, type from pragma_table_info('points')"])
      .toString()
      .trim();
    // ogr2ogr declares the text columns without a width: the case measured here.
    expect(declared).toContain('note|TEXT\n');
    expected = {
      name: Math.max(256, sqliteLongest(path, 'name')),
      note: Math.max(256, sqliteLongest(path, 'note')),
      remark: Math.max(256, sqliteLongest(path, 'remark')),
    };
    // The note's value is longer in bytes than in characters (ü), and both long values pass 256.
    expect(expected.note).toBe(Buffer.byteLength(LONG_NOTE));
    expect(expected.note).toBeGreaterThan(LONG_NOTE.length);
    expect(expected).toEqual({ name: 256, note: expected.note, remark: 300 });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a load resumed after its first batch still publishes the longest value the first attempt read', async () => {
    const serviceItemId = `${stamp}a`.padEnd(32, 'e');
    const jobId = `gpkg-length-${serviceItemId}`;
    await insertSqliteJob(jobId, serviceItemId);
    await new MockActivityEnvironment().run(() => activities.planPublish(jobId));

    // The first attempt loads the whole file; the retry resumes from its heartbeat after the first
    // batch, as after a crash: it deletes the rows past that point and reads on from there.
    const first = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000 });
    const beats: LoadProgress[] = [];
    first.on('heartbeat', (d: LoadProgress) => beats.push(d));
    const firstResult = (await first.run(() => activities.loadLayer(jobId, 0))) as LoadResult;
    expect(firstResult.reasons).toEqual([]);
    expect(firstResult.rowsLoaded).toBe(ROWS);
    const resumeFrom = beats.find((b) => b.rowNumber >= LONG_NOTE_ROW && b.rowNumber < LONG_REMARK_ROW);
    expect(resumeFrom?.rowNumber).toBe(20_000);

    const second = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000, heartbeatDetails: resumeFrom });
    const secondBeats: LoadProgress[] = [];
    second.on('heartbeat', (d: LoadProgress) => secondBeats.push(d));
    const secondResult = (await second.run(() => activities.loadLayer(jobId, 0))) as LoadResult;
    expect(secondResult.rowsRead).toBe(ROWS);
    expect(secondResult.rowsLoaded).toBe(ROWS);
    // The retry never read the first batch, where the long note is.
    expect(Math.min(...secondBeats.map((b) => b.rowNumber))).toBeGreaterThanOrEqual(20_000);

    // The load's figures went on from the resume point's: the widths include the note only the first
    // attempt read. finishLayer takes them instead of scanning the table.
    expect(resumeFrom?.stats?.rows).toBe(20_000);
    expect(secondResult.stats?.rows).toBe(ROWS);
    const finished = (await new MockActivityEnvironment().run(() =>
      activities.finishLayer(jobId, 0, secondResult.stats),
    )) as { featureCount: number };
    expect(finished.featureCount).toBe(ROWS);
    expect(await publishedLengths(serviceItemId)).toEqual(expected);
    // The extent published is PostgreSQL's over the loaded table.
    const [layer] = await listLayers(database.db, serviceItemId);
    if (!layer) throw new Error('no layer was published');
    const scanned = await featureTableStats(database, featureTableName(serviceItemId, 0));
    const { xmin, ymin, xmax, ymax } = (layer.definition as { extent: Record<string, number> }).extent;
    expect([xmin, ymin, xmax, ymax]).toEqual(scanned.extent);
    expect(scanned.count).toBe(ROWS);
    // The widths the encoder threads kept are PostgreSQL's octet lengths over the table, to the byte.
    const job = await findJob(database.db, jobId);
    const plan = (job?.plan as PublishPlan | null)?.layers[0];
    if (!plan) throw new Error('the job has no plan');
    const measured = measuredTextFields(plan).map((f) => f.column);
    expect(measured).toHaveLength(3);
    const widths = await featureTableStats(database, featureTableName(serviceItemId, 0), measured);
    expect(secondResult.stats?.longest).toEqual(widths.longest);
    // The file is above the size read on the activity's thread: these are the encoder thread's figures.
    expect(statSync(path).size).toBeGreaterThan(4 * 1024 * 1024);
  }, 240_000);

  it("analyze answers the same lengths, and a publish given analyze's fields ends with them", async () => {
    const [analyzed] = await analyzeSqlite(readFileSync(path), 'points', 5);
    const table = analyzed?.table;
    if (!table) throw new Error('analyze found no table');
    const lengths = Object.fromEntries(
      table.headers.map((h, i) => [h, table.declaredFields?.[i]?.length]).filter(([h]) => h !== 'id'),
    );
    expect(lengths).toEqual(expected);

    // publishParameters as a client sends them back from analyze: the fields with their lengths.
    const fields = table.headers.map((h, i) => ({
      name: h,
      type: table.declaredFields?.[i]?.type,
      ...(table.declaredFields?.[i]?.length ? { length: table.declaredFields[i].length } : {}),
    }));
    const serviceItemId = `${stamp}b`.padEnd(32, 'e');
    const jobId = `gpkg-length-${serviceItemId}`;
    await insertSqliteJob(jobId, serviceItemId, fields);
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000 });
    await env.run(() => activities.planPublish(jobId));
    await env.run(() => activities.loadLayer(jobId, 0));
    await env.run(() => activities.finishLayer(jobId, 0));
    expect(await publishedLengths(serviceItemId)).toEqual(expected);
  }, 240_000);

  it("a small file, encoded on the activity's thread, publishes the same way", async () => {
    const csv = join(dir, 'small.csv');
    const small = join(dir, 'small.gpkg');
    await writeCsv(csv, 50);
    writeGeoPackage(csv, small);
    // Under the encoder thread's 4 MiB: the rows are read and encoded in the activity.
    expect(statSync(small).size).toBeLessThan(4 * 1024 * 1024);
    const want = {
      name: 256,
      note: Math.max(256, sqliteLongest(small, 'note')),
      remark: Math.max(256, sqliteLongest(small, 'remark')),
    };
    expect(want).toEqual({ name: 256, note: Buffer.byteLength(LONG_NOTE), remark: 256 });
    const serviceItemId = `${stamp}c`.padEnd(32, 'e');
    const jobId = `gpkg-length-${serviceItemId}`;
    await insertSqliteJob(jobId, serviceItemId, undefined, small);
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000 });
    await env.run(() => activities.planPublish(jobId));
    const loaded = (await env.run(() => activities.loadLayer(jobId, 0))) as LoadResult;
    expect([loaded.rowsLoaded, loaded.reasons]).toEqual([50, []]);
    // The figures of data copied on the activity's thread are read from it (copyDataStats): PostgreSQL's
    // over the table, and finishLayer publishes sqlite3's lengths from them.
    const job = await findJob(database.db, jobId);
    const plan = (job?.plan as PublishPlan | null)?.layers[0];
    if (!plan) throw new Error('the job has no plan');
    const measured = measuredTextFields(plan).map((f) => f.column);
    const scanned = await featureTableStats(database, featureTableName(serviceItemId, 0), measured);
    expect(loaded.stats).toEqual({ rows: scanned.count, extent: scanned.extent, longest: scanned.longest });
    await env.run(() => activities.finishLayer(jobId, 0, loaded.stats));
    expect(await publishedLengths(serviceItemId)).toEqual(want);
  }, 120_000);
});
