/**
 * A worker killed in the middle of a load: the activity is retried on another worker, resumes from
 * its last heartbeat and the table ends with exactly the usable rows. The workflow runs on a task
 * queue only this test's worker processes poll, so the test decides which worker dies.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { featureTableName } from '../../../db/repositories/feature-tables.js';
import { findJob } from '../../../db/repositories/jobs.js';
import {
  PUBLISH_WORKFLOW,
  type PublishWorkflowResult,
  publishWorkflowId,
} from '../../../workflows/messages.js';
import { stack } from '../support/portal-client.js';
import { insertCsvPublishJob, startWorker, writePointsCsv } from './worker-process.js';

const ROWS = 400_000;
/** Every 1000th row has an unusable latitude. */
const usable = ROWS - ROWS / 1000;

describe('a worker killed in the middle of a load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'publish-kill-'));
  const taskQueue = `publish-kill-${Date.now()}`;
  const serviceItemId = `${Date.now().toString(16)}`.padEnd(32, 'b');
  const jobId = `kill-${serviceItemId}`;
  const workers: ChildProcess[] = [];
  let database: DatabaseHandle;
  let connection: Connection;

  beforeAll(async () => {
    const s = stack();
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 2 });
    connection = await Connection.connect({ address: s.temporalAddress });
    const path = join(dir, 'points.csv');
    await writePointsCsv(path, ROWS);
    await insertCsvPublishJob(database, path, jobId, serviceItemId);
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await connection?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('completes on a second worker with exactly the usable rows, each once', async () => {
    const client = new Client({ connection });
    const handle = await client.workflow.start(PUBLISH_WORKFLOW, {
      taskQueue,
      workflowId: publishWorkflowId(jobId),
      args: [{ jobId, serviceItemId, owner: stack().admin.username, fileType: 'csv' }],
    });
    workers.push(startWorker(taskQueue, join(dir, 'w1')));
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
    for (const started = Date.now(); Date.now() - started < 120_000; ) {
      loadedBeforeKill = await rowsNow();
      if (loadedBeforeKill > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    workers[0].kill('SIGKILL');
    await once(workers[0], 'exit');
    expect(loadedBeforeKill).toBeGreaterThan(0);
    expect(loadedBeforeKill).toBeLessThan(usable);

    workers.push(startWorker(taskQueue, join(dir, 'w2')));
    const result = (await handle.result()) as PublishWorkflowResult;
    expect(result.featureCount).toBe(usable);
    const [counts] = await database.rows<{ n: number; ids: number; max: number }>(
      sql.raw(
        `select count(*)::int as n, count(distinct objectid)::int as ids, max(objectid)::int as max from "${table}"`,
      ),
    );
    expect(counts).toEqual({ n: usable, ids: usable, max: ROWS - 1 });
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? []).map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 0);
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
    const job = await findJob(database.db, jobId);
    expect(job?.status).toBe('completed');
  }, 240_000);
});
