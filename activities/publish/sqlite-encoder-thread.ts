/**
 * Reading, decoding and encoding a GeoPackage or SQLite table on a thread of its own
 * (sqlite-encoder-work.ts), as the CSV path does: a one-thread load was bound by decoding and
 * encoding (about 100,000 rows/s) while PostgreSQL waited. The activity's thread asks for batches
 * ahead and streams each to PostgreSQL as it comes. Batches come in table order.
 */
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { ErrorRecord } from '../../db/repositories/jobs.js';
import type { ResumePoint } from './layer-sources.js';
import { releaseThread, takeThread } from './spare-threads.js';
import type { SqliteThreadInit } from './sqlite-encoder-work.js';
import { failureError, type ThreadFailure } from './thread-copy.js';

export interface SqliteThreadBatch {
  rows: number;
  data: Uint8Array;
  loaded: number;
  rejected: ErrorRecord[];
  /** The resume point after this batch. */
  next: ResumePoint;
}

type Reply =
  | ({ ok: true; done: false } & SqliteThreadBatch)
  | { ok: true; done: true }
  | ({ ok: false } & ThreadFailure);

/** How long a closing thread may take to finish its batch and close the file before it is ended. */
const CLOSE_WAIT_MS = 5000;

const workerUrl = new URL('./sqlite-encoder-worker.mjs', import.meta.url);

export class SqliteEncoderThread {
  private readonly worker: Worker;
  private readonly waiting: { resolve(b: SqliteThreadBatch | null): void; reject(e: Error): void }[] = [];
  private failure: Error | null = null;
  private released = false;

  constructor(init: SqliteThreadInit) {
    // A thread started ahead (spare-threads.ts) when there is one; its first message is the load.
    this.worker = takeThread(workerUrl, init);
    this.worker.on('message', (reply: Reply) => {
      const next = this.waiting.shift();
      if (!next) return;
      if (!reply.ok) next.reject(failureError(reply, init.copy?.fence, 'Reading the file'));
      else if (reply.done) next.resolve(null);
      else next.resolve(reply);
    });
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) =>
      this.fail(new Error(`The SQLite encoder thread stopped (exit code ${code}).`)),
    );
  }

  private fail(e: Error) {
    this.failure ??= e;
    for (const w of this.waiting.splice(0)) w.reject(this.failure);
  }

  /** The next batch encoded for COPY, or null after the last. */
  next(): Promise<SqliteThreadBatch | null> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage('next');
    });
  }

  /** Lets the thread close the file and exit (after the batch it may be encoding), else ends it. */
  async close(): Promise<void> {
    if (!this.released) {
      this.released = true;
      releaseThread(workerUrl);
    }
    const stopped = this.failure !== null;
    this.failure ??= new Error('The SQLite encoder thread was closed.');
    if (stopped) return;
    const exited = once(this.worker, 'exit');
    this.worker.postMessage('close');
    const timer = setTimeout(() => void this.worker.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }
}
