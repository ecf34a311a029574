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
import { insertCsvPublishJob, startWorker, tableParts, writePointsCsv } from './worker-process.js';

const ROWS = 400_000;
/** Every 1000th row has an unusable latitude. */
const usable = ROWS - ROWS / 1000;

describe.each([
  // Killed as soon as rows are in.
  ['one table', 'b', {}, 1],
  // Eight parts by planning's estimate; killed once more than two parts' rows are in, so the first parts'
  // builds are done or under way on the killed worker.
  ['a table in parts', 'a', { FEATURE_TABLE_PART_ROWS: '50000' }, 120_000],
] as const)('a worker killed in the middle of a load into %s', (_, pad, env, killAfterRows) => {
  const dir = mkdtempSync(join(tmpdir(), 'publish-kill-'));
  const taskQueue = `publish-kill-${pad}-${Date.now()}`;
  const serviceItemId = `${Date.now().toString(16)}`.padEnd(32, pad);
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
    for (const started = Date.now(); Date.now() - started < 120_000; ) {
      loadedBeforeKill = await rowsNow();
      if (loadedBeforeKill >= killAfterRows) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    workers[0].kill('SIGKILL');
    await once(workers[0], 'exit');
    expect(loadedBeforeKill).toBeGreaterThan(0);
    expect(loadedBeforeKill).toBeLessThan(usable);

    workers.push(startWorker(taskQueue, join(dir, 'w2'), env));
    const result = (await handle.result()) as PublishWorkflowResult;
    expect(result.featureCount).toBe(usable);
    const [counts] = await database.rows<{ n: number; ids: number; max: number }>(
      sql.raw(
        `select count(*)::int as n, count(distinct objectid)::int as ids, max(objectid)::int as max from "${table}"`,
      ),
    );
    expect(counts).toEqual({ n: usable, ids: usable, max: ROWS - 1 });
    // In parts: every part (from the catalog) has both indexes, attached to the table's, and the rows lie
    // in the parts in object id order; one table: no parts.
    const { parts, attached, spread } = await tableParts(database, table);
    if (killAfterRows > 1) {
      // About eight parts' rows by planning's sample (its first records are shorter than the file's later
      // ones, so it may count one part more, left empty).
      expect(parts.length).toBeGreaterThanOrEqual(8);
      expect(parts.length).toBeLessThanOrEqual(9);
      expect(parts.every((p) => p.indexes === 2)).toBe(true);
      expect(attached).toBe(2 * parts.length);
      expect(spread.length).toBeGreaterThanOrEqual(8);
      for (let k = 1; k < spread.length; k++) expect(spread[k].lo).toBeGreaterThan(spread[k - 1].hi);
    } else {
      expect(parts).toEqual([]);
      expect(attached).toBe(0);
      expect(spread).toHaveLength(1);
    }
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? []).map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 0);
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
    const job = await findJob(database.db, jobId);
    expect(job?.status).toBe('completed');
  }, 240_000);
});
