/**
 * Runs in the CSV load thread (csv-load-thread.ts): the whole load of a delimited file into
 * PostgreSQL, off the activity's thread. It streams the file from MinIO from the resume point, cuts it
 * into batches on record boundaries, encodes each to binary COPY data and copies it on a connection of
 * its own, one transaction per batch behind the load attempt's fence, with one COPY in flight while the
 * next batch is encoded. After each commit it tells the activity's thread the batch's counts, rejected
 * rows and resume point. The bytes never reach the activity's thread, whose large heap (the Temporal
 * worker, the API) was marked in full for every 64 MB of buffers that passed through it.
 */
import { createReadStream } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type MessagePort, parentPort } from 'node:worker_threads';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { CopyBinaryWriter } from './copy-binary.js';
import { addedStats, encodedStats, type LoadedStats } from './copy-stats.js';
import { createCsvBatchEncoder } from './csv-batch-encoder.js';
import type { CsvLoadMessage } from './csv-load-thread.js';
import { type CsvDialect, csvByteBatchesOf, sliceEnds } from './csv-source.js';
import { serveLoads } from './spare-threads.js';
import { type ThreadCopy, threadCopier, threadFailure } from './thread-copy.js';

export interface CsvLoadInit extends ThreadCopy {
  plan: LayerPlan;
  targetSR: SpatialReference;
  geometrySR: SpatialReference;
  start: { byteOffset: number; rowNumber: number };
  /**
   * Where the source's bytes are read: a URL that reads the object (ObjectStore.readUrl), or the path of
   * a copy of it in this process (the upload's own file, kept: infra/readers/sqlite-spool.ts); and the
   * object's size.
   */
  source: { url: string; size: number } | { path: string; size: number };
  /** Bytes of whole records per batch (one transaction each). */
  batchBytes: number;
}

/** Bytes of each read of a local copy. */
const FILE_READ_BYTES = 1024 * 1024;

/** The source from the resume point on (nothing when the previous attempt read it all). */
async function* sourceBytes(init: CsvLoadInit): AsyncGenerator<Uint8Array> {
  if (init.start.byteOffset >= init.source.size) return;
  if ('path' in init.source) {
    // A local file: no HTTP on either side (reading 83 MB took 0.02-0.04 CPU-s against 0.13-0.14 here
    // and 0.05-0.06 in MinIO through the object's URL).
    yield* createReadStream(init.source.path, {
      start: init.start.byteOffset,
      highWaterMark: FILE_READ_BYTES,
    });
    return;
  }
  const response = await fetch(init.source.url, { headers: { range: `bytes=${init.start.byteOffset}-` } });
  if (response.status !== 206 || !response.body) {
    await response.body?.cancel();
    throw new Error(`Reading the source file from the object store failed: HTTP ${response.status}.`);
  }
  yield* response.body as unknown as AsyncIterable<Uint8Array>;
}

async function load(init: CsvLoadInit, port: MessagePort): Promise<void> {
  const dialect = (init.plan.source as { dialect: CsvDialect }).dialect;
  const encodeBatch = createCsvBatchEncoder(init.plan, init.targetSR, init.geometrySR);
  const qualifier = dialect.qualifier.charCodeAt(0);
  const copier = threadCopier(init);
  // Two writers in turn: one holds the batch being copied, the other the batch being encoded.
  const writers = [0, 1].map(() => new CopyBinaryWriter(init.batchBytes * 3));
  const batches = csvByteBatchesOf(sourceBytes(init), dialect, init.start.byteOffset, init.batchBytes);
  try {
    let rowNumber = init.start.rowNumber;
    let inFlight: Promise<void> | null = null;
    let next = batches.next();
    for (let k = 0; ; k++) {
      const read = await next;
      if (read.done) break;
      const raw = read.value;
      // The next batch is read while this one is encoded.
      next = batches.next();
      next.catch(() => {});
      const w = writers[k % 2];
      w.restart();
      let rows = 0;
      let loaded = 0;
      // What the batch puts in the table, as the encoder wrote it (a CSV measures no text widths).
      let stats: LoadedStats | undefined = encodedStats(0, null, []);
      const rejected: Extract<CsvLoadMessage, { type: 'batch' }>['rejected'] = [];
      let from = 0;
      for (const end of sliceEnds(raw.bytes, qualifier)) {
        const e = encodeBatch(raw.bytes.subarray(from, end), rowNumber + rows, w);
        from = end;
        rows += e.rows;
        loaded += e.loaded;
        stats = addedStats(stats, encodedStats(e.loaded, e.bounds, []));
        for (const r of e.rejected) rejected.push(r);
        await nextTurn();
      }
      rowNumber += rows;
      if (inFlight) await inFlight;
      // Every batch passes the fence, even one whose rows were all rejected.
      const data = loaded > 0 ? w.finish() : '';
      const committed: CsvLoadMessage = {
        type: 'batch',
        rows,
        loaded,
        rejected,
        next: { byteOffset: raw.nextByteOffset, rowNumber },
        stats,
      };
      inFlight = copier.copy(data).then(() => port.postMessage(committed));
      // Awaited before the next COPY or at the end; a failure meanwhile must not go unhandled.
      inFlight.catch(() => {});
    }
    if (inFlight) await inFlight;
  } finally {
    // A read still waiting (after a failed COPY) ends with the thread.
    await copier.close();
  }
}

// The thread may have been started ahead of its load, and is kept for the next one after a load that
// ended well (spare-threads.ts): each work message is a load, answered with its final message.
serveLoads<CsvLoadInit>(parentPort, async (init) => {
  try {
    await load(init, parentPort as MessagePort);
    return { type: 'done' } satisfies CsvLoadMessage;
  } catch (e) {
    return { type: 'failed', ...threadFailure(e) } satisfies CsvLoadMessage;
  }
});
