/**
 * Runs in the SQLite encoder thread (sqlite-encoder-thread.ts): reads the layer's table from the
 * spooled file page by page, decodes records and GeoPackage geometries and encodes each batch to
 * binary COPY data, one batch per request, so the activity's thread only streams COPY data to
 * PostgreSQL while this thread decodes the next batch on the other core. A thread serves one load
 * after another: one that read its table to the end is kept for the next load (spare-threads.ts).
 */
import { type MessagePort, parentPort } from 'node:worker_threads';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import { openSqlitePath } from '../../infra/readers/sqlite-pages.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { CopyBinaryWriter } from './copy-binary.js';
import { addedStats, encodedStats, type LoadedStats } from './copy-stats.js';
import type { ResumePoint } from './layer-sources.js';
import { createRowEncoder } from './row-encoder.js';
import { type BatchShare, SQLITE_BATCH_ROWS } from './sqlite-source.js';
import { sqliteLayerRecords } from './sqlite-tables.js';
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

/** A load's final answer to 'end': whether it read the table to its end with no failure. */
export interface SqliteLoadEnded {
  ok: true;
  ended: true;
  clean: boolean;
}

const NO_DATA = new Uint8Array(0);
const failed = (e: unknown) => ({ ok: false, ...threadFailure(e) });
/**
 * A batch is read and encoded in pieces of this many rows into one COPY buffer: a whole batch's row
 * objects, held at once, outlived young collections and filled the old generation (a full collection
 * every ~90 ms of a million-feature load).
 */
const PIECE_ROWS = 2000;

/** One load of a table: its reader, encoder and (on PostgreSQL) its connection. */
function startLoad(init: SqliteThreadInit, port: MessagePort) {
  const encoder = createRowEncoder(init.plan, init.targetSR, init.geometrySR);
  /** The batch being written (made at its first row). */
  let w: CopyBinaryWriter | null = null;
  // Batch buffers whose COPY has committed, for the next batches (a new 3.2 MB buffer a batch counted
  // against the thread's heap limit, as the file's blocks did: see recycleBlocks).
  const freeWriters: CopyBinaryWriter[] = [];
  const batches = sqliteLayerRecords(
    () => openSqlitePath(init.path, { recycleBlocks: true }),
    init.plan,
    init.start,
    encoder,
    () => {
      if (!w) {
        w = freeWriters.pop() ?? new CopyBinaryWriter(SQLITE_BATCH_ROWS * 160 + 64);
        w.restart();
      }
      return w;
    },
    init.share,
    PIECE_ROWS,
  );
  const copier = init.copy ? threadCopier(init.copy) : null;
  /** The batch being copied; the next one's COPY waits for it, so answers keep the order of requests. */
  let inFlight: Promise<void> | null = null;
  let copyFailed = false;
  /** The reader answered the table's end. */
  let atEnd = false;

  async function nextBatch() {
    let rows = 0;
    let loaded = 0;
    let pieces = 0;
    /** What the batch puts in the table, as the encoder wrote it (copy-stats.ts). */
    let stats: LoadedStats | undefined;
    const rejected: ReturnType<typeof encoder.encode>['rejected'] = [];
    for (;;) {
      const r = await batches.next();
      if (r.done) {
        if (pieces === 0) {
          atEnd = true;
          return { ok: true, done: true };
        }
        throw new Error('The table ended inside a batch.');
      }
      const piece = r.value;
      pieces++;
      rows += piece.rows;
      loaded += piece.loaded;
      const told = encodedStats(piece.loaded, piece.bounds, piece.longest);
      stats = pieces === 1 ? told : addedStats(stats, told);
      for (const x of piece.rejected) rejected.push(x);
      if (!piece.partial) {
        // A batch of no rows (the table ended after its last piece) still answers its resume point.
        const batch = w ?? new CopyBinaryWriter(64);
        w = null;
        const data = batch.finish();
        // On PostgreSQL the buffer comes back once its COPY has committed; elsewhere it goes to the activity.
        const reuse = copier ? batch : undefined;
        return { ok: true, done: false, rows, data, loaded, rejected, next: piece.next, stats, batch: reuse };
      }
    }
  }

  /** Encodes the next batch and starts its COPY (after the previous one's); answers when it commits. */
  async function copyNext(): Promise<void> {
    const reply = await nextBatch();
    if (inFlight) await inFlight;
    if (copyFailed) return;
    if (reply.done || !copier) {
      port.postMessage(reply);
      return;
    }
    const { batch, ...answer } = reply;
    const { data, loaded } = answer;
    inFlight = copier.copy(loaded && loaded > 0 && data ? data : '').then(
      () => {
        // Its bytes are in the table: the buffer takes a later batch.
        if (batch) freeWriters.push(batch);
        port.postMessage({ ...answer, data: NO_DATA });
      },
      (e: unknown) => {
        copyFailed = true;
        port.postMessage(failed(e));
      },
    );
  }

  return {
    /** Answers the next batch (or the end, or a failure). */
    async next(): Promise<void> {
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
    },
    /** Ends the load: its last COPY, the reader (closing the file) and the connection. */
    async end(): Promise<boolean> {
      if (inFlight) await inFlight;
      await batches.return(undefined);
      await copier?.close();
      return atEnd && !copyFailed;
    },
  };
}

/**
 * The thread may have been started ahead of its load, and is kept for the next one after a load that
 * read its table to the end (spare-threads.ts). Each object message is a load; 'next' asks its next
 * batch; 'end' ends the load and answers SqliteLoadEnded; 'close' ends it and the thread. Requests are
 * answered one after the other, in order: a load's reader is one generator. One listener takes every
 * message from the start, so none sent before this module was loaded is lost.
 */
if (!parentPort) throw new Error('The SQLite encoder runs in a worker thread.');
const port = parentPort;
let load: ReturnType<typeof startLoad> | null = null;
let queue: Promise<void> = Promise.resolve();
const then = (task: () => Promise<void> | void) => {
  queue = queue.then(task).catch((e: unknown) => {
    port.postMessage(failed(e));
  });
};
port.on('message', (m: SqliteThreadInit | 'next' | 'end' | 'close') => {
  if (m === 'close') {
    then(async () => {
      await load?.end().catch(() => false);
      // The TypeScript loader's channel would keep the thread alive; the file is closed, so end it.
      process.exit(0);
    });
  } else if (m === 'end') {
    then(async () => {
      const clean = load ? await load.end().catch(() => false) : false;
      load = null;
      port.postMessage({ ok: true, ended: true, clean } satisfies SqliteLoadEnded);
    });
  } else if (m === 'next') {
    then(() => (load ? load.next() : port.postMessage(failed(new Error('No load was given.')))));
  } else {
    then(() => {
      load = startLoad(m, port);
    });
  }
});
