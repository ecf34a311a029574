/**
 * Runs in the CSV encoder thread: parses each batch of whole records and encodes it to binary COPY
 * data, numbering rows on from where the load started (batches arrive in file order), so that the
 * activity's thread only moves bytes between MinIO and PostgreSQL.
 */
import { parentPort } from 'node:worker_threads';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { encodedStats } from './copy-stats.js';
import { createCsvBatchEncoder } from './csv-batch-encoder.js';
import { receiveWork } from './spare-threads.js';

export interface EncoderThreadInit {
  plan: LayerPlan;
  targetSR: SpatialReference;
  geometrySR: SpatialReference;
  firstRowNumber: number;
}

// The thread may have been started ahead of its load (spare-threads.ts): its first message is the load.
const { init, port, onMessage } = await receiveWork<EncoderThreadInit, Uint8Array>(parentPort);
const encodeBatch = createCsvBatchEncoder(init.plan, init.targetSR, init.geometrySR);
let rowNumber = init.firstRowNumber;

onMessage((bytes) => {
  try {
    const { data, loaded, rejected, rows, bounds } = encodeBatch(bytes, rowNumber);
    rowNumber += rows;
    // What the batch puts in the table, as the encoder wrote it (a CSV measures no text widths).
    const stats = encodedStats(loaded, bounds, []);
    port.postMessage({ ok: true, rows, data, loaded, rejected, stats }, [data.buffer as ArrayBuffer]);
  } catch (e) {
    port.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
  }
});
