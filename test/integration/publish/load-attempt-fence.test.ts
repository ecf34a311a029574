/**
 * Two attempts of one load running at once, as when Temporal retries a load whose heartbeat stopped
 * while the attempt it gave up on is still running in the same worker. The first attempt is held in
 * a batch's transaction (the test locks the feature table) while the second starts from the first's
 * last heartbeat; then both run on. The fence lets the second win: the first stops at its next batch
 * without writing, and the table ends with every usable row exactly once and its unique index built.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadResult } from '../../../activities/publish/load-layer.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { featureTableName } from '../../../db/repositories/feature-tables.js';
import { StaleLoadAttemptError } from '../../../db/repositories/load-fence.js';
import { stack } from '../support/portal-client.js';
import { insertCsvPublishJob, stackPublishActivities, writePointsCsv } from './worker-process.js';

const ROWS = 300_000;
/** Every 1000th row has an unusable latitude. */
const usable = ROWS - ROWS / 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two attempts of one load running at once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'load-fence-'));
  const serviceItemId = `${Date.now().toString(16)}`.padEnd(32, 'f');
  const jobId = `fence-${serviceItemId}`;
  const table = featureTableName(serviceItemId, 0);
  let database: DatabaseHandle;
  let locker: postgres.Sql;

  beforeAll(async () => {
    const s = stack();
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 6 });
    locker = postgres(s.databaseUrl, { max: 2, onnotice: () => {} });
    const path = join(dir, 'points.csv');
    await writePointsCsv(path, ROWS);
    await insertCsvPublishJob(database, path, jobId, serviceItemId);
  }, 120_000);

  afterAll(async () => {
    await locker?.end();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('let the newer attempt win and the older stop without writing, every row once', async () => {
    const activities = stackPublishActivities(database);
    await new MockActivityEnvironment().run(() => activities.planPublish(jobId));

    // The first attempt; once it has committed a batch the test takes the table, so a later batch of
    // the first attempt waits inside its transaction, past the fence check. (Its first heartbeat, the
    // start point, comes before any batch.)
    const first = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000 });
    const beats: { rowNumber: number; byteOffset: number }[] = [];
    let release: (() => void) | undefined;
    let taken = false;
    const locked = new Promise<void>((resolveLocked) => {
      first.on('heartbeat', (d: { rowNumber: number; byteOffset: number }) => {
        beats.push(d);
        if (taken || d.rowNumber === 0) return;
        taken = true;
        void locker.begin(async (tx) => {
          await tx.unsafe(`lock table "${table}" in access exclusive mode`);
          resolveLocked();
          await new Promise<void>((r) => {
            release = r;
          });
        });
      });
    });
    const firstRun: Promise<LoadResult | unknown> = first
      .run(() => activities.loadLayer(jobId, 0))
      .then(
        (r) => r,
        (e: unknown) => e,
      );
    await locked;
    const waitingFor = async (pattern: string) => {
      for (let i = 0; i < 600; i++) {
        const [r] = await locker<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and query like ${pattern}`;
        if ((r?.n ?? 0) > 0) return;
        await sleep(50);
      }
      throw new Error(`nothing waited on ${pattern}`);
    };
    await waitingFor('copy %');

    // The retry, resuming from the first attempt's last heartbeat as Temporal would.
    const resumeFrom = beats.at(-1);
    const second = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000, heartbeatDetails: resumeFrom });
    const secondRun: Promise<LoadResult> = second.run(() => activities.loadLayer(jobId, 0));
    // Its new attempt number waits for the first attempt's open batch; then both go on.
    await waitingFor('%publish_load_attempts%');
    release?.();

    const [firstResult, secondResult] = await Promise.all([firstRun, secondRun]);
    expect(firstResult).toBeInstanceOf(StaleLoadAttemptError);
    expect(secondResult.rowsLoaded).toBe(usable);
    expect(secondResult.rowsRead).toBe(ROWS);

    const [counts] = await database.rows<{ n: number; ids: number; max: number; sum: string }>(
      sql.raw(
        `select count(*)::int as n, count(distinct objectid)::int as ids, max(objectid)::int as max, sum(a_0)::text as sum from "${table}"`,
      ),
    );
    // The CSV's id column is 1..ROWS; the rows whose id is a multiple of 1000 have no latitude.
    const skipped = (1000 * (ROWS / 1000) * (ROWS / 1000 + 1)) / 2;
    expect(counts).toEqual({
      n: usable,
      ids: usable,
      max: ROWS - 1,
      sum: String((ROWS * (ROWS + 1)) / 2 - skipped),
    });
    const finished = (await new MockActivityEnvironment().run(() => activities.finishLayer(jobId, 0))) as {
      featureCount: number;
    };
    expect(finished.featureCount).toBe(usable);
  }, 240_000);
});
