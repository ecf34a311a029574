/**
 * An append of more rows than the old in-memory limit (120,000), its workers killed twice: once while
 * the source is being staged, once inside the apply transaction. The third worker finishes it, and the
 * layer ends with every row exactly once and the job Completed. The workflow runs on a task queue only
 * this test's worker processes poll, so the test decides which worker dies.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { stagedRowCount } from '../../../db/repositories/append-staging.js';
import { findJob, insertJob } from '../../../db/repositories/service-jobs.js';
import { createObjectStore } from '../../../infra/object-store.js';
import {
  APPEND_WORKFLOW,
  type AppendJobInput,
  appendWorkflowId,
} from '../../../workflows/append-messages.js';
import { EDITABLE, type EditableService, publishStations } from '../editing/edit-client.js';
import { startWorker } from '../publish/worker-process.js';
import { call, signIn, stack } from '../support/portal-client.js';

const ROWS = 120_000;
const visitsOf = (i: number) => i % 997;

async function writeRows(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('Name,Kind,Visits\n');
  for (let i = 1; i <= ROWS; i++)
    if (!out.write(`row ${i},k${i % 5},${visitsOf(i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

describe('an append whose workers are killed while staging and while applying', () => {
  const dir = mkdtempSync(join(tmpdir(), 'append-kill-'));
  const taskQueue = `append-kill-${Date.now()}`;
  const jobId = `${Date.now().toString(16)}`.padEnd(32, 'c');
  const workers: ChildProcess[] = [];
  let database: DatabaseHandle;
  let connection: Connection;
  let token: string;
  let svc: EditableService;
  let sourceSize = 0;
  const sourceKey = `append-kill/${jobId}/rows.csv`;

  beforeAll(async () => {
    const s = stack();
    token = await signIn();
    svc = await publishStations(token, EDITABLE);
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 2 });
    connection = await Connection.connect({ address: s.temporalAddress });
    const path = join(dir, 'rows.csv');
    await writeRows(path);
    sourceSize = statSync(path).size;
    const store = createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 });
    await store.put(sourceKey, createReadStream(path), sourceSize);
    await insertJob(database.db, {
      jobId,
      operation: 'append',
      serviceItemId: svc.serviceItemId,
      submitter: s.admin.username,
      submissionTime: Date.now(),
    });
  }, 180_000);

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await connection?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const kill = async (w: ChildProcess) => {
    w.kill('SIGKILL');
    await once(w, 'exit');
  };
  const count = async () =>
    (await call(`${svc.layer}/query`, { token, where: '1=1', returnCountOnly: 'true' })).json.count as number;

  it('adds every row exactly once and completes the job', async () => {
    const client = new Client({ connection });
    const input: AppendJobInput = {
      source: { jobId, fileType: 'csv', sourceKey, sourceSize },
      serviceItemId: svc.serviceItemId,
      layerId: 0,
      submitter: stack().admin.username,
      options: {
        fieldMappings: [],
        upsert: false,
        skipUpdates: false,
        skipInserts: false,
        updateGeometry: true,
        rollbackOnFailure: true,
      },
    };
    const handle = await client.workflow.start(APPEND_WORKFLOW, {
      taskQueue,
      workflowId: appendWorkflowId(jobId),
      args: [input],
    });

    workers.push(startWorker(taskQueue, join(dir, 'w1')));
    let stagedAtKill = 0;
    for (const started = Date.now(); Date.now() - started < 180_000 && stagedAtKill === 0; )
      stagedAtKill = await stagedRowCount(database, jobId).catch(() => 0);
    await kill(workers[0]);
    expect(stagedAtKill).toBeGreaterThan(0);
    expect(stagedAtKill).toBeLessThan(ROWS);

    workers.push(startWorker(taskQueue, join(dir, 'w2')));
    // Inside the transaction: some rows written (the layer's table holds a write lock of an open
    // transaction, which it keeps until commit), none committed.
    const table = `f_${svc.serviceItemId}_0`;
    const writing = async () =>
      (
        await database.rows(
          sql`select 1 from pg_locks l join pg_class c on c.oid = l.relation
              where c.relname = ${table} and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`,
        )
      ).length > 0;
    for (const started = Date.now(); Date.now() - started < 300_000 && !(await writing()); )
      await new Promise((r) => setTimeout(r, 20));
    await kill(workers[1]);
    expect(await count()).toBe(3);
    expect((await findJob(database.db, jobId))?.status).toBe('Executing');

    workers.push(startWorker(taskQueue, join(dir, 'w3')));
    const answer = (await handle.result()) as Record<string, any>;
    expect([answer.status, answer.recordCount, answer.addedCount, answer.failedCount]).toEqual([
      'Completed',
      ROWS,
      ROWS,
      0,
    ]);
    expect(answer.addResults).toHaveLength(1000);
    expect(answer.resultsTruncated).toBe(true);

    const stats = (
      await call(`${svc.layer}/query`, {
        token,
        where: 'OBJECTID > 3',
        outStatistics: JSON.stringify([
          { statisticType: 'count', onStatisticField: 'Name', outStatisticFieldName: 'n' },
          { statisticType: 'sum', onStatisticField: 'Visits', outStatisticFieldName: 'visits' },
        ]),
      })
    ).json.features[0].attributes;
    let visits = 0;
    for (let i = 1; i <= ROWS; i++) visits += visitsOf(i);
    expect([stats.n, stats.visits]).toEqual([ROWS, visits]);
    const distinct = (
      await call(`${svc.layer}/query`, {
        token,
        where: 'OBJECTID > 3',
        returnDistinctValues: 'true',
        outFields: 'Name',
        returnCountOnly: 'true',
      })
    ).json.count;
    expect(distinct).toBe(ROWS);
    const job = await findJob(database.db, jobId);
    expect([job?.status, (job?.result as any)?.addedCount]).toEqual(['Completed', ROWS]);
    expect(await stagedRowCount(database, jobId)).toBe(0);
    const attempts = ((await handle.fetchHistory()).events ?? []).map(
      (e) => e.activityTaskStartedEventAttributes?.attempt ?? 0,
    );
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
  }, 900_000);
});
