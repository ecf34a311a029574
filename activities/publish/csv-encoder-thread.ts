/**
 * Parsing and encoding of delimited text on a thread of its own (csv-encoder-work.ts): while it
 * turns one batch into COPY data, the activity's thread reads the next from MinIO and streams the
 * previous one to PostgreSQL, so the load uses both cores. Batches are answered in the order they
 * were given. The thread gets a young generation large enough that the short-lived strings of a
 * batch rarely survive into the old one.
 */
import type { Worker } from 'node:worker_threads';
import type { ErrorRecord } from '../../db/repositories/jobs.js';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import { afterDelay, threadEntry } from '../../infra/thread-bundles.js';
import { internalError } from '../../lib/errors.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import type { LoadedStats } from './copy-stats.js';
import type { EncoderThreadInit } from './csv-encoder-work.js';
import { prestartThread, releaseThread, takeThread } from './spare-threads.js';

export interface ThreadBatch {
  /** Records parsed (blank lines are not records). */
  rows: number;
  data: Uint8Array;
  loaded: number;
  rejected: ErrorRecord[];
  /** What the batch puts in the table, as the encoder wrote it (copy-stats.ts). */
  stats?: LoadedStats;
}

type Reply = ({ ok: true } & ThreadBatch) | { ok: false; message: string };

const workerUrl = threadEntry(
  new URL('./csv-encoder-work.ts', import.meta.url),
  new URL('./csv-encoder-worker.mjs', import.meta.url),
);

/** Has a CSV encoder thread started ahead for the first load (spare-threads.ts), after `delayMs`. */
export const prestartCsvEncoderThread = (delayMs: number) =>
  afterDelay(delayMs, () => prestartThread(workerUrl(), 0));

export class CsvEncoderThread {
  private readonly worker: Worker;
  private readonly waiting: { resolve(b: ThreadBatch): void; reject(e: Error): void }[] = [];
  private failure: Error | null = null;
  private released = false;

  constructor(
    plan: LayerPlan,
    targetSR: SpatialReference,
    geometrySR: SpatialReference,
    firstRowNumber: number,
  ) {
    const init: EncoderThreadInit = { plan, targetSR, geometrySR, firstRowNumber };
    // A thread started ahead (spare-threads.ts) when there is one; its first message is the load.
    this.worker = takeThread(workerUrl(), init);
    this.worker.on('message', (reply: Reply) => {
      const next = this.waiting.shift();
      if (!next) return;
      if (reply.ok) next.resolve(reply);
      else next.reject(internalError('Unable to complete operation.', [`Encoding failed: ${reply.message}`]));
    });
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) =>
      this.fail(new Error(`The CSV encoder thread stopped (exit code ${code}).`)),
    );
  }

  private fail(e: Error) {
    this.failure ??= e;
    for (const w of this.waiting.splice(0)) w.reject(this.failure);
  }

  /** Parses and encodes the next batch of whole records (copied, the caller keeps its bytes). */
  encode(bytes: Uint8Array): Promise<ThreadBatch> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      const copy = new Uint8Array(bytes);
      this.worker.postMessage(copy, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    if (!this.released) {
      this.released = true;
      releaseThread(workerUrl());
    }
    this.failure ??= new Error('The CSV encoder thread was closed.');
    await this.worker.terminate();
  }
}
