/**
 * Runs in the SQLite encoder thread (sqlite-encoder-thread.ts): reads the layer's table from the
 * spooled file page by page, decodes records and GeoPackage geometries and encodes each batch to
 * binary COPY data, one batch per request, so the activity's thread only streams COPY data to
 * PostgreSQL while this thread decodes the next batch on the other core.
 */
import { parentPort } from 'node:worker_threads';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import { openSqlitePath } from '../../infra/readers/sqlite-pages.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { CopyBinaryWriter } from './copy-binary.js';
import type { ResumePoint } from './layer-sources.js';
import { createRowEncoder } from './row-encoder.js';
import { receiveWork } from './spare-threads.js';
import { type BatchShare, SQLITE_BATCH_ROWS } from './sqlite-source.js';
import { sqliteLayerBatches } from './sqlite-tables.js';
import { type ThreadCopy, threadCopier, threadFailure } from './thread-copy.js';

export interface SqliteThreadInit {
  /** The spooled copy of the source file. */
  path: string;
  plan: LayerPlan;
  targetSR: SpatialReference;
  geometrySR: SpatialReference;
  start: ResumePoint;
  /** This thread's part of the batches, when several threads read the table (all of them if absent). */
  share?: BatchShare;
  /**
   * On PostgreSQL the thread copies each batch itself on a connection of its own and answers it once
   * committed, without its data: the COPY data never crosses to the activity's thread.
   */
  copy?: ThreadCopy;
}

// The thread may have been started ahead of its load (spare-threads.ts): its first message is the load.
const { init, port, onMessage } = await receiveWork<SqliteThreadInit, 'next' | 'close'>(parentPort);
const encoder = createRowEncoder(init.plan, init.targetSR, init.geometrySR);
/**
 * A batch is read and encoded in pieces of this many rows into one COPY buffer: a whole batch's row
 * objects, held at once, outlived young collections and filled the old generation (a full collection
 * every ~90 ms of a million-feature load).
 */
const PIECE_ROWS = 2000;
const batches = sqliteLayerBatches(
  () => openSqlitePath(init.path),
  init.plan,
  init.start,
  init.share,
  PIECE_ROWS,
);

async function nextBatch() {
  let w: CopyBinaryWriter | null = null;
  let rows = 0;
  let loaded = 0;
  const rejected: ReturnType<typeof encoder.encode>['rejected'] = [];
  for (;;) {
    const r = await batches.next();
    if (r.done) {
      if (!w) return { ok: true, done: true };
      throw new Error('The table ended inside a batch.');
    }
    const { rows: piece, geometries, firstRowNumber, next, partial } = r.value;
    w ??= new CopyBinaryWriter(SQLITE_BATCH_ROWS * 160 + 64);
    const e = encoder.encode(piece, firstRowNumber, geometries, w);
    rows += piece.length;
    loaded += e.loaded;
    for (const x of e.rejected) rejected.push(x);
    if (!partial) return { ok: true, done: false, rows, data: w.finish(), loaded, rejected, next };
  }
}

const copier = init.copy ? threadCopier(init.copy) : null;
/** The batch being copied; the next one's COPY waits for it, so answers keep the order of requests. */
let inFlight: Promise<void> | null = null;
let copyFailed = false;
const NO_DATA = new Uint8Array(0);
const failed = (e: unknown) => ({ ok: false, ...threadFailure(e) });

/** Encodes the next batch and starts its COPY (after the previous one's); answers when it commits. */
async function copyNext(): Promise<void> {
  const reply = await nextBatch();
  if (inFlight) await inFlight;
  if (copyFailed) return;
  if (reply.done || !copier) {
    port?.postMessage(reply);
    return;
  }
  const { data, loaded } = reply;
  inFlight = copier.copy(loaded && loaded > 0 && data ? data : '').then(
    () => port?.postMessage({ ...reply, data: NO_DATA }),
    (e: unknown) => {
      copyFailed = true;
      port?.postMessage(failed(e));
    },
  );
}

// Requests are answered one after the other, in order: the reader is one generator. 'close' ends
// the reader (closing the file) and lets the thread exit.
let queue: Promise<void> = Promise.resolve();
onMessage((request) => {
  if (request === 'close') {
    queue = queue.then(async () => {
      await batches.return(undefined);
      // The TypeScript loader's channel would keep the thread alive; the file is closed, so end it.
      process.exit(0);
    });
    return;
  }
  queue = queue.then(async () => {
    try {
      if (copier) {
        await copyNext();
        return;
      }
      const reply = await nextBatch();
      const data = 'data' in reply ? reply.data : undefined;
      port.postMessage(reply, data ? [data.buffer as ArrayBuffer] : []);
    } catch (e) {
      // After the batch being copied has been answered.
      if (inFlight) await inFlight;
      if (!copyFailed) port.postMessage(failed(e));
      copyFailed = true;
    }
  });
});
