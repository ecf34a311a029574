/**
 * A worker killed in the middle of a GeoPackage load: the activity is retried on another worker,
 * seeks past the last key its heartbeat recorded and the table ends with every feature exactly once.
 * The workflow runs on a task queue only this test's worker processes poll, so the test decides which
 * worker dies. The GeoPackage is written by ogr2ogr from a generated CSV, large enough (43 MB) that
 * several encoder threads share its table, so both the killed load and the resumed one are shared.
 * The workers cut tables into parts of 50,000 rows, so the table is in six parts (by planning's count
 * of the file's rows), and the worker is killed once more than two parts' rows are in: the first parts'
 * builds are done or under way on the killed worker, and the second worker builds what is left.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteParts } from '../../../activities/publish/load-layer.js';
import { parsePublishParameters } from '../../../api/publish/publish-parameters.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { featureTableName } from '../../../db/repositories/feature-tables.js';
import { findJob, insertJob } from '../../../db/repositories/jobs.js';
import { insertService } from '../../../db/repositories/services.js';
import { createObjectStore } from '../../../infra/object-store.js';
import {
  PUBLISH_WORKFLOW,
  type PublishWorkflowResult,
  publishWorkflowId,
} from '../../../workflows/messages.js';
import { stack } from '../support/portal-client.js';
import { startWorker, tableParts } from './worker-process.js';

const ROWS = 300_000;
/** Rows a part holds (the workers' FEATURE_TABLE_PART_ROWS): six parts. */
const PART_ROWS = 50_000;
const KILL_AFTER_ROWS = 120_000;

async function writeCsv(path: string) {
  const out = createWriteStream(path);
  out.write('id,name,category,value,lat,lon\n');
  for (let i = 1; i <= ROWS; i++) {
    const lat = (41.6 + (i % 3800) / 10000).toFixed(5);
    const lon = (-87.9 + (i % 4500) / 10000).toFixed(5);
    if (!out.write(`${i},point ${i},c${i % 7},${(i % 997) / 10},${lat},${lon}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

describe('a worker killed in the middle of a GeoPackage load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpkg-kill-'));
  const taskQueue = `gpkg-kill-${Date.now()}`;
  const serviceItemId = `${Date.now().toString(16)}`.padEnd(32, 'c');
  const jobId = `gpkg-kill-${serviceItemId}`;
  const workers: ChildProcess[] = [];
  let database: DatabaseHandle;
  let connection: Connection;

  beforeAll(async () => {
    const s = stack();
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 2 });
    connection = await Connection.connect({ address: s.temporalAddress });
    const csv = join(dir, 'points.csv');
    await writeCsv(csv);
    const path = join(dir, 'points.gpkg');
    execFileSync('ogr2ogr', [
      ...['-f', 'GPKG', path, csv, '-nln', 'points', '-a_srs', 'EPSG:4326', '-gt', '65536'],
      ...['-oo', 'X_POSSIBLE_NAMES=lon', '-oo', 'Y_POSSIBLE_NAMES=lat', '-oo', 'AUTODETECT_TYPE=YES'],
    ]);
    expect(sqliteParts(statSync(path).size)).toBeGreaterThan(1);
    const store = createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 });
    const sourceKey = `publish/${jobId}/source`;
    const { createReadStream } = await import('node:fs');
    await store.put(sourceKey, createReadStream(path), statSync(path).size);
    const checked = parsePublishParameters({
      fileType: 'sqlite',
      parameters: { name: `gpkg_killed_${serviceItemId.slice(0, 8)}`, layerInfo: { capabilities: 'Query' } },
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
      request: { ...checked, sourceKey, sourceSize: statSync(path).size },
      created: now,
      modified: now,
    });
  }, 240_000);

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await connection?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('completes on a second worker with every feature exactly once', async () => {
    const client = new Client({ connection });
    const handle = await client.workflow.start(PUBLISH_WORKFLOW, {
      taskQueue,
      workflowId: publishWorkflowId(jobId),
      args: [{ jobId, serviceItemId, owner: stack().admin.username, fileType: 'sqlite' }],
    });
    const env = { FEATURE_TABLE_PART_ROWS: String(PART_ROWS) };
    workers.push(startWorker(taskQueue, join(dir, 'w1'), env));
    const table = featureTableName(serviceItemId, 0);
    const rowsNow = async () => {
      try {
        const r = await database.rows<{ n: number }>(sql.raw(`select count(*)::int as n from "${table}"`));
        return r[0]?.n ?? 0;
      } catch {
        return 0;
      }
    };
    let loadedBeforeKill = 0;
    for (const started = Date.now(); Date.now() - started < 180_000; ) {
      loadedBeforeKill = await rowsNow();
      if (loadedBeforeKill > KILL_AFTER_ROWS) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    workers[0].kill('SIGKILL');
    await once(workers[0], 'exit');
    expect(loadedBeforeKill).toBeGreaterThan(KILL_AFTER_ROWS);
    expect(loadedBeforeKill).toBeLessThan(ROWS);

    workers.push(startWorker(taskQueue, join(dir, 'w2'), env));
    const result = (await handle.result()) as PublishWorkflowResult;
    expect(result.featureCount).toBe(ROWS);
    // The CSV's id (1..ROWS) and name ('point <id>') columns: every value once, none missing.
    const columns = await database.rows<{ column_name: string; data_type: string }>(
      sql.raw(
        `select column_name, data_type from information_schema.columns where table_name = '${table}' and column_name like 'a\\_%'`,
      ),
    );
    const stats = [];
    for (const c of columns) {
      const numeric = ['integer', 'bigint', 'smallint'].includes(c.data_type);
      const [r] = await database.rows<{ n: number; distinct: number; sum: string | null; min: string }>(
        sql.raw(
          `select count(*)::int as n, count(distinct "${c.column_name}")::int as distinct, ${numeric ? `sum("${c.column_name}")::text` : 'null'} as sum, min("${c.column_name}")::text as min from "${table}"`,
        ),
      );
      stats.push({ ...r, type: c.data_type });
    }
    expect(stats.every((s) => s.n === ROWS)).toBe(true);
    expect(stats.find((s) => s.sum === String((ROWS * (ROWS + 1)) / 2))).toMatchObject({
      distinct: ROWS,
      min: '1',
    });
    expect(stats.find((s) => s.min === 'point 1')).toMatchObject({ distinct: ROWS });
    const [ids] = await database.rows<{ n: number; ids: number; max: number }>(
      sql.raw(
        `select count(*)::int as n, count(distinct objectid)::int as ids, max(objectid)::int as max from "${table}"`,
      ),
    );
    expect(ids).toEqual({ n: ROWS, ids: ROWS, max: ROWS });
    // Six parts (from the catalog), each with both indexes, attached to the table's, and the rows lie
    // in the parts in object id order.
    const { parts, attached, spread } = await tableParts(database, table);
    expect(parts).toHaveLength(ROWS / PART_ROWS);
    expect(parts.every((p) => p.indexes === 2)).toBe(true);
    expect(attached).toBe(2 * parts.length);
    expect(spread).toHaveLength(ROWS / PART_ROWS);
    for (let k = 1; k < spread.length; k++) expect(spread[k].lo).toBe(spread[k - 1].hi + 1);
    expect(spread[0].lo).toBe(1);
    expect(spread[spread.length - 1].hi).toBe(ROWS);
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? []).map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 0);
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
    const job = await findJob(database.db, jobId);
    expect(job?.status).toBe('completed');
  }, 360_000);
});
