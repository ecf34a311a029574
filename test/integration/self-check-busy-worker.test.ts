/**
 * The self-check passes on a worker whose every activity slot is taken: after a crash, the restarted
 * worker picks up the interrupted jobs' long steps first, and the launcher's check (2 minutes) must not
 * wait behind them. A worker with one activity slot, held by a step that does not end until released.
 * And a check that waits (no worker yet) tells the launcher once that it is still waiting, then passes
 * when a worker comes; one that passes at once says nothing.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSelfCheckActivities } from '../../activities/self-check.js';
import { type DatabaseHandle, openDatabase } from '../../db/client.js';
import { createObjectStore, type ObjectStore } from '../../infra/object-store.js';
import { runSelfCheck } from '../../infra/self-check.js';
import { workflowsPath } from '../../infra/temporal.js';
import type { SelfCheckResult } from '../../workflows/self-check.js';
import { TILE_CACHE_BUILD_WORKFLOW } from '../../workflows/tile-cache-messages.js';
import { stack } from './support/portal-client.js';

describe('the self-check on a worker whose activity slots are all taken', () => {
  let database: DatabaseHandle;
  let connection: NativeConnection;
  let client: Client;
  let store: ObjectStore;

  beforeAll(async () => {
    const s = stack();
    store = createObjectStore({
      ...s.minio,
      endpoint: new URL(s.minio.endpoint),
      consolePort: 0,
    } as never);
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 1 });
    connection = await NativeConnection.connect({ address: s.temporalAddress });
    client = new Client({ connection: await Connection.connect({ address: s.temporalAddress }) });
  });
  afterAll(async () => {
    await connection?.close();
    await client?.connection.close();
    await database?.close();
  });

  it('completes while a long step holds the only slot', async () => {
    const taskQueue = `self-check-busy-${Date.now()}`;
    let release = () => {};
    let started = () => {};
    const holding = new Promise<void>((resolve) => {
      started = resolve;
    });
    const worker = await Worker.create({
      connection,
      taskQueue,
      workflowsPath,
      maxConcurrentActivityTaskExecutions: 1,
      activities: {
        ...createSelfCheckActivities({ database, store, now: Date.now }),
        // A cache build's first step, standing for any long step of an interrupted job.
        prepareTileCache: () =>
          new Promise((_, reject) => {
            started();
            release = () => reject(new Error('released'));
          }),
      },
    });
    const held = client.workflow.start(TILE_CACHE_BUILD_WORKFLOW, {
      taskQueue,
      workflowId: `${taskQueue}-held`,
      args: [{ serviceItemId: 'f'.repeat(32) }],
    });
    await worker.runUntil(async () => {
      await holding;
      const checkId = `busy-${Date.now()}`;
      try {
        const result = (await client.workflow.execute('selfCheckWorkflow', {
          taskQueue,
          workflowId: `${taskQueue}-check`,
          args: [{ checkId }],
          workflowExecutionTimeout: '30 seconds',
        })) as SelfCheckResult;
        expect(result.objectKey).toBe(`system/self-check/${checkId}.json`);
        expect(await store.stat(result.objectKey)).toBeTruthy();
        // The long step still holds its slot: the check did not wait for it.
        expect((await (await held).describe()).status.name).toBe('RUNNING');
      } finally {
        release();
        await (await held).terminate('test over');
      }
    });
  }, 120_000);

  it('says once that it is still waiting while no worker answers, then passes when one does', async () => {
    const taskQueue = `self-check-wait-${Date.now()}`;
    const config = { temporal: { taskQueue } } as Parameters<typeof runSelfCheck>[1];
    const notices: number[] = [];
    const started = Date.now();
    let noticed = () => {};
    const firstNotice = new Promise<void>((resolve) => {
      noticed = resolve;
    });
    const check = runSelfCheck(
      client,
      config,
      { database, store },
      () => {
        notices.push(Date.now() - started);
        noticed();
      },
      1_000,
    );
    await firstNotice;
    // Only now a worker: the check was waiting for one when it said so.
    const worker = await Worker.create({
      connection,
      taskQueue,
      workflowsPath,
      activities: createSelfCheckActivities({ database, store, now: Date.now }),
    });
    await worker.runUntil(async () => {
      const result = await check;
      expect(await store.stat(result.objectKey)).toBeTruthy();
      expect(notices).toHaveLength(1);
      expect(notices[0]).toBeGreaterThanOrEqual(1_000);

      // With the worker there, a check passes before its notice is due, which then never comes.
      const quiet: number[] = [];
      const from = Date.now();
      const again = await runSelfCheck(
        client,
        config,
        { database, store },
        () => quiet.push(Date.now() - from),
        5_000,
      );
      expect(again.objectKey).not.toBe(result.objectKey);
      expect(Date.now() - from).toBeLessThan(5_000);
      await new Promise((r) => setTimeout(r, 5_300 - (Date.now() - from)));
      expect(quiet).toEqual([]);
    });
  }, 120_000);
});
