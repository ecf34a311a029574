/**
 * A delimited file's whole load on a thread of its own (csv-load-work.ts): the thread reads the file
 * from MinIO, encodes it and copies it into PostgreSQL on its own connection, and reports each
 * committed batch here, where the activity heartbeats it and records its rejected rows. Used on
 * PostgreSQL outside a transaction; PGlite lives in the activity's thread, which copies there.
 */
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { ErrorRecord } from '../../db/repositories/jobs.js';
import { afterDelay, threadEntry } from '../../infra/thread-bundles.js';
import type { LoadedStats } from './copy-stats.js';
import type { CsvLoadInit } from './csv-load-work.js';
import {
  handBackThread,
  prestartThread,
  releaseThread,
  spareThreadIds,
  takeThread,
} from './spare-threads.js';
import { failureError, type ThreadFailure } from './thread-copy.js';

/** A batch the thread has committed, with the resume point after it. */
export interface CommittedCsvBatch {
  /** Records read (blank lines are not records). */
  rows: number;
  loaded: number;
  rejected: ErrorRecord[];
  next: { byteOffset: number; rowNumber: number };
  /** What the batch put in the table (copy-stats.ts); none where it cannot be told. */
  stats?: LoadedStats;
}

export type CsvLoadMessage =
  | ({ type: 'batch' } & CommittedCsvBatch)
  | { type: 'done' }
  | ({ type: 'failed' } & ThreadFailure);

/** How long a finished thread may take to close its connection and exit before it is ended. */
const CLOSE_WAIT_MS = 5000;

const workerUrl = threadEntry(
  new URL('./csv-load-work.ts', import.meta.url),
  new URL('./csv-load-worker.mjs', import.meta.url),
);

/** The thread ids of the idle CSV load threads (for tests). */
export const idleCsvLoadThreads = (): number[] => spareThreadIds(workerUrl());

/** Has a CSV load thread started ahead for the first load (spare-threads.ts), after `delayMs`. */
export const prestartCsvLoadThread = (delayMs: number) =>
  afterDelay(delayMs, () => prestartThread(workerUrl(), 0));

export class CsvLoadThread {
  private readonly worker: Worker;
  private readonly messages: CsvLoadMessage[] = [];
  private wake: (() => void) | null = null;
  private finished = false;
  /** The load's final message was 'done': the thread can serve the next load (keepThread). */
  private succeeded = false;
  private exited = false;
  private released = false;
  private readonly onMessage = (m: CsvLoadMessage) => this.push(m);
  private readonly onError = (e: Error) => this.push({ type: 'failed', message: e.message });
  private readonly onExit = (code: number) => {
    this.exited = true;
    this.push({ type: 'failed', message: `The CSV load thread stopped (exit code ${code}).` });
  };

  constructor(private readonly init: CsvLoadInit) {
    // A thread started ahead, or kept from an earlier load (spare-threads.ts), when there is one; its
    // first message is the load.
    this.worker = takeThread(workerUrl(), init);
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
  }

  private push(m: CsvLoadMessage) {
    this.messages.push(m);
    this.wake?.();
    this.wake = null;
  }

  /** The committed batches in file order; throws what the load failed with. */
  async *committed(): AsyncGenerator<CommittedCsvBatch> {
    for (;;) {
      const m = this.messages.shift();
      if (!m) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        continue;
      }
      if (m.type === 'batch') {
        const { type: _, ...batch } = m;
        yield batch;
        continue;
      }
      this.finished = true;
      if (m.type === 'done') {
        this.succeeded = true;
        return;
      }
      throw failureError(m, this.init.fence, 'Loading the file');
    }
  }

  /**
   * Keeps a thread whose load ended well for the next load (its connection is closed by then), or
   * lets it exit; ends one still loading, or one whose load failed, at once or after its exit.
   */
  async close(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (this.succeeded && !this.exited) {
      const listeners = { message: this.onMessage, error: this.onError, exit: this.onExit };
      if (handBackThread(workerUrl(), this.worker, listeners)) return;
    } else releaseThread(workerUrl());
    if (this.exited) return;
    if (!this.finished) {
      await this.worker.terminate();
      return;
    }
    const exited = once(this.worker, 'exit');
    this.worker.postMessage('close');
    const timer = setTimeout(() => void this.worker.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }
}
