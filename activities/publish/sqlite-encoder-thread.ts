/**
 * Reading, decoding and encoding a GeoPackage or SQLite table on a thread of its own
 * (sqlite-encoder-work.ts), as the CSV path does: a one-thread load was bound by decoding and
 * encoding (about 100,000 rows/s) while PostgreSQL waited. The activity's thread asks for batches
 * ahead and streams each to PostgreSQL as it comes. Batches come in table order.
 */
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { ErrorRecord } from '../../db/repositories/jobs.js';
import { afterDelay, threadEntry } from '../../infra/thread-bundles.js';
import type { LoadedStats } from './copy-stats.js';
import type { ResumePoint } from './layer-sources.js';
import {
  handBackThread,
  prestartThread,
  releaseThread,
  spareThreadIds,
  takeThread,
} from './spare-threads.js';
import type { SqliteLoadEnded, SqliteThreadInit } from './sqlite-encoder-work.js';
import { failureError, type ThreadFailure } from './thread-copy.js';

export interface SqliteThreadBatch {
  rows: number;
  data: Uint8Array;
  loaded: number;
  rejected: ErrorRecord[];
  /** The resume point after this batch. */
  next: ResumePoint;
  /** What the batch put in the table, where the thread copied it (copy-stats.ts). */
  stats?: LoadedStats;
}

type Reply =
  | ({ ok: true; done: false } & SqliteThreadBatch)
  | { ok: true; done: true }
  | SqliteLoadEnded
  | ({ ok: false } & ThreadFailure);

/**
 * How long a closing thread may take to finish its batch and close the file (or end its load, to be
 * kept) before it is ended.
 */
const CLOSE_WAIT_MS = 5000;

const workerUrl = threadEntry(
  new URL('./sqlite-encoder-work.ts', import.meta.url),
  new URL('./sqlite-encoder-worker.mjs', import.meta.url),
);

/** The thread ids of the idle SQLite encoder threads (for tests). */
export const idleSqliteEncoderThreads = (): number[] => spareThreadIds(workerUrl());

/**
 * Has `count` SQLite encoder threads started ahead for the first GeoPackage or SQLite load, after
 * `delayMs` (spare-threads.ts), and as many kept idle after each load.
 */
export const prestartSqliteEncoderThreads = (count: number, delayMs: number) =>
  afterDelay(delayMs, () => prestartThread(workerUrl(), 0, count));

export class SqliteEncoderThread {
  private readonly worker: Worker;
  private readonly waiting: { resolve(b: SqliteThreadBatch | null): void; reject(e: Error): void }[] = [];
  private failure: Error | null = null;
  /** The thread answered a failure: its load is not ended cleanly, and the thread is not kept. */
  private answeredFailure = false;
  private ended: ((clean: boolean) => void) | null = null;
  private released = false;
  private readonly onMessage = (reply: Reply) => {
    if ('ended' in reply) {
      this.ended?.(reply.clean);
      this.ended = null;
      return;
    }
    const next = this.waiting.shift();
    if (!next) return;
    if (!reply.ok) {
      this.answeredFailure = true;
      next.reject(failureError(reply, this.init.copy?.fence, 'Reading the file'));
    } else if (reply.done) next.resolve(null);
    else next.resolve(reply);
  };
  private readonly onError = (e: Error) => this.fail(e);
  private exited = false;
  private readonly onExit = (code: number) => {
    this.exited = true;
    this.fail(new Error(`The SQLite encoder thread stopped (exit code ${code}).`));
  };

  constructor(private readonly init: SqliteThreadInit) {
    // A thread started ahead, or kept from an earlier load (spare-threads.ts), when there is one; its
    // first message is the load.
    this.worker = takeThread(workerUrl(), init);
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
  }

  /** The thread's id (tests: a kept thread serves the next load). */
  get threadId(): number {
    return this.worker.threadId;
  }

  private fail(e: Error) {
    this.failure ??= e;
    for (const w of this.waiting.splice(0)) w.reject(this.failure);
    this.ended?.(false);
    this.ended = null;
  }

  /** The next batch encoded for COPY, or null after the last. */
  next(): Promise<SqliteThreadBatch | null> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage('next');
    });
  }

  /**
   * Ends the load. A thread that read its table to the end without a failure is kept for the next
   * load (keepThread: its code is compiled and optimised, where a fresh one compiles it again beside
   * the load); any other closes the file and exits (after the batch it may be encoding), else is ended.
   */
  async close(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const stopped = this.failure !== null;
    this.failure ??= new Error('The SQLite encoder thread was closed.');
    if (stopped) {
      releaseThread(workerUrl());
      return;
    }
    const timer = setTimeout(() => void this.worker.terminate(), CLOSE_WAIT_MS);
    try {
      if (!this.answeredFailure) {
        // Answered after every batch asked for before it (requests are served in order).
        const clean = await new Promise<boolean>((resolve) => {
          this.ended = resolve;
          this.worker.postMessage('end');
        });
        if (clean && this.waiting.length === 0) {
          const listeners = { message: this.onMessage, error: this.onError, exit: this.onExit };
          if (handBackThread(workerUrl(), this.worker, listeners)) return;
        } else releaseThread(workerUrl());
      } else releaseThread(workerUrl());
      // Ended meanwhile (it failed, or the wait above ran out).
      if (this.exited) return;
      const exited = once(this.worker, 'exit');
      this.worker.postMessage('close');
      await exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
