/**
 * Runs in the SQLite encoder thread (sqlite-encoder-thread.ts): reads the layer's table from the
 * spooled file page by page, decodes records and GeoPackage geometries and encodes each batch to
 * binary COPY data, one batch per request, so the activity's thread only streams COPY data to
 * PostgreSQL while this thread decodes the next batch on the other core.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import { openSqlitePath } from '../../infra/readers/sqlite-pages.js';
import { isGeoError } from '../../lib/errors.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import type { ResumePoint } from './layer-sources.js';
import { createRowEncoder } from './row-encoder.js';
import type { BatchShare } from './sqlite-source.js';
import { sqliteLayerBatches } from './sqlite-tables.js';

export interface SqliteThreadInit {
  /** The spooled copy of the source file. */
  path: string;
  plan: LayerPlan;
  targetSR: SpatialReference;
  geometrySR: SpatialReference;
  start: ResumePoint;
  /** This thread's part of the batches, when several threads read the table (all of them if absent). */
  share?: BatchShare;
}

const init = workerData as SqliteThreadInit;
const port = parentPort;
if (!port) throw new Error('sqlite-encoder-work runs in a worker thread.');
const encoder = createRowEncoder(init.plan, init.targetSR, init.geometrySR);
const batches = sqliteLayerBatches(() => openSqlitePath(init.path), init.plan, init.start, init.share);

async function nextBatch() {
  const r = await batches.next();
  if (r.done) return { ok: true, done: true };
  const { rows, geometries, firstRowNumber, next } = r.value;
  const { data, loaded, rejected } = encoder.encode(rows, firstRowNumber, geometries);
  return { ok: true, done: false, rows: rows.length, data, loaded, rejected, next };
}

// Requests are answered one after the other, in order: the reader is one generator. 'close' ends
// the reader (closing the file) and lets the thread exit.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: 'next' | 'close') => {
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
      const reply = await nextBatch();
      const data = 'data' in reply ? reply.data : undefined;
      port.postMessage(reply, data ? [data.buffer as ArrayBuffer] : []);
    } catch (e) {
      port.postMessage({
        ok: false,
        message: e instanceof Error ? e.message : String(e),
        ...(isGeoError(e) ? { error: e.toBody() } : {}),
      });
    }
  });
});
