/**
 * "This publish job has ended", from the worker to every API process: finishJob sends a NOTIFY with
 * the job id in the transaction that ends the job, so it is delivered when (and only if) that commits.
 * A status call for a young job waits for it instead of answering "processing" and leaving the client
 * to find the outcome one polling interval later. One LISTEN per database handle, shared by all
 * callers; a process that cannot listen simply does not wait.
 */
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type postgres from 'postgres';
import type { Database, DatabaseHandle } from '../client.js';

export const JOB_FINISHED_CHANNEL = 'publish_job_finished';

/** Run in the transaction that gives the job its outcome. */
export async function notifyJobFinished(db: Database, jobId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${JOB_FINISHED_CHANNEL}, ${jobId})`);
}

type Waiters = Map<string, Set<() => void>>;
const listeners = new WeakMap<DatabaseHandle, Promise<Waiters>>();

function listenerOf(handle: DatabaseHandle): Promise<Waiters> {
  let listening = listeners.get(handle);
  if (!listening) {
    const waiters: Waiters = new Map();
    const deliver = (jobId: string) => {
      for (const wake of waiters.get(jobId) ?? []) wake();
    };
    const started =
      handle.kind === 'postgres'
        ? (handle.driver as postgres.Sql).listen(JOB_FINISHED_CHANNEL, deliver)
        : (handle.driver as PGlite).listen(JOB_FINISHED_CHANNEL, deliver);
    listening = Promise.resolve(started).then(() => waiters);
    // A failed LISTEN is tried again by the next caller.
    listening.catch(() => listeners.delete(handle));
    listeners.set(handle, listening);
  }
  return listening;
}

export interface JobWatch {
  /** True once the job's end was notified (since the watch began), false after `ms` without it. */
  ended(ms: number): Promise<boolean>;
  close(): void;
}

/**
 * Starts listening for the end of `jobId` before the caller reads the job, so an end committed between
 * that read and the wait is not missed.
 */
export async function watchJob(handle: DatabaseHandle, jobId: string): Promise<JobWatch> {
  const waiters = await listenerOf(handle);
  let notified = false;
  let wake = () => {};
  const onEnd = () => {
    notified = true;
    wake();
  };
  const set = waiters.get(jobId) ?? new Set();
  set.add(onEnd);
  waiters.set(jobId, set);
  return {
    ended(ms) {
      if (notified) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(notified), ms);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
    },
    close() {
      set.delete(onEnd);
      if (set.size === 0 && waiters.get(jobId) === set) waiters.delete(jobId);
    },
  };
}
