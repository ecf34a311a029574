/**
 * Test support for killing a worker in the middle of a job: an activity of a running workflow as the
 * Temporal server sees it, polling for a state, a table lock to hold a statement, and what such a test opens.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Connection, type WorkflowHandle } from '@temporalio/client';
import postgres from 'postgres';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { stack } from './portal-client.js';

export interface PendingStep {
  attempt: number;
  started: boolean;
  /** Milliseconds since the epoch of the last heartbeat the server received, if any. */
  lastHeartbeat: number | null;
}

/** The workflow's pending activity of type `name` (the first, if several), or null. */
export async function pendingActivity(handle: WorkflowHandle, name: string): Promise<PendingStep | null> {
  const { raw } = await handle.describe();
  const p = (raw.pendingActivities ?? []).find((a) => a.activityType?.name === name);
  if (!p) return null;
  const hb = p.lastHeartbeatTime;
  return {
    attempt: p.attempt ?? 1,
    // PENDING_ACTIVITY_STATE_STARTED
    started: p.state === 2,
    lastHeartbeat: hb?.seconds ? Number(hb.seconds) * 1000 + Math.floor((hb.nanos ?? 0) / 1e6) : null,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 50 ms until it answers something other than null, or fails after `timeoutMs`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(50)) {
    const v = await probe();
    if (v !== null) return v;
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

/**
 * Waits until the activity `name` has started and heartbeats, and then for a later heartbeat (beats keep
 * arriving while it waits on something); answers that step.
 */
export async function heartbeating(handle: WorkflowHandle, name: string): Promise<PendingStep> {
  const first = await until(`${name} started`, 120_000, async () => {
    const p = await pendingActivity(handle, name);
    return p?.started && p.lastHeartbeat ? p : null;
  });
  return until('a later heartbeat', 25_000, async () => {
    const p = await pendingActivity(handle, name);
    return p && (p.lastHeartbeat ?? 0) > (first.lastHeartbeat ?? 0) ? p : null;
  });
}

/**
 * Milliseconds from `restart()` until the activity `name` runs an attempt after its first, or the workflow
 * has completed.
 */
export async function restartToMoving(
  handle: WorkflowHandle,
  name: string,
  restart: () => void,
): Promise<number> {
  const restartedAt = Date.now();
  restart();
  const moved = await until('the job moving again', 180_000, async () => {
    const p = await pendingActivity(handle, name);
    if (p && p.attempt >= 2 && p.started) return Date.now();
    const { status } = await handle.describe();
    return status.name === 'COMPLETED' ? Date.now() : null;
  });
  return moved - restartedAt;
}

/** Takes `lock table` on `table` in `mode` in a transaction of its own; the answer releases it. */
export async function holdTableLock(
  sql: postgres.Sql,
  table: string,
  mode: string,
): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  let lockHeld = () => {};
  const held = new Promise<void>((r) => {
    lockHeld = r;
  });
  const holding = sql.begin(async (tx) => {
    await tx.unsafe(`lock table "${table}" in ${mode} mode`);
    lockHeld();
    await released;
  });
  await held;
  return async () => {
    release();
    await holding;
  };
}

/** What a worker-kill test holds; `close` kills the worker processes it started and ends the rest. */
export interface KillTest {
  database: DatabaseHandle;
  /** A connection of its own, for locks held while the worker waits. */
  locker: postgres.Sql;
  connection: Connection;
  /** Worker processes the test starts. */
  workers: ChildProcess[];
  close(): Promise<void>;
}

/** Opens a KillTest on the test stack; `close` also removes `dir`. */
export async function openKillTest(dir: string): Promise<KillTest> {
  const s = stack();
  const database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 2 });
  const locker = postgres(s.databaseUrl, { max: 1, onnotice: () => {} });
  const connection = await Connection.connect({ address: s.temporalAddress });
  const workers: ChildProcess[] = [];
  return {
    database,
    locker,
    connection,
    workers,
    async close() {
      for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
      await locker.end({ timeout: 5 });
      await connection.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
