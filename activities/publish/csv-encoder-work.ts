/**
 * Runs in the CSV encoder thread: parses each batch of whole records and encodes it to binary COPY
 * data, numbering rows on from where the load started (batches arrive in file order), so that the
 * activity's thread only moves bytes between MinIO and PostgreSQL.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { type CsvDialect, parseRecords } from './csv-source.js';
import { createRowEncoder } from './row-encoder.js';

export interface EncoderThreadInit {
  plan: LayerPlan;
  targetSR: SpatialReference;
  geometrySR: SpatialReference;
  firstRowNumber: number;
}

const init = workerData as EncoderThreadInit;
const dialect = (init.plan.source as { dialect: CsvDialect }).dialect;
const encoder = createRowEncoder(init.plan, init.targetSR, init.geometrySR);
let rowNumber = init.firstRowNumber;
const port = parentPort;
if (!port) throw new Error('csv-encoder-work runs in a worker thread.');

const qualifier = dialect.qualifier.length === 1 ? dialect.qualifier.charCodeAt(0) : -1;

/** Batches without a qualifier (most of a machine-written file) are encoded from their bytes. */
function encodeBatch(bytes: Uint8Array) {
  if (qualifier >= 0 && qualifier < 0x80 && !bytes.includes(qualifier)) {
    const batch = encoder.encodeDelimited(bytes, dialect, rowNumber);
    return { ...batch, rows: batch.records };
  }
  const rows = parseRecords(bytes, dialect);
  return { ...encoder.encode(rows, rowNumber), rows: rows.length };
}

port.on('message', (bytes: Uint8Array) => {
  try {
    const { data, loaded, rejected, rows } = encodeBatch(bytes);
    rowNumber += rows;
    port.postMessage({ ok: true, rows, data, loaded, rejected }, [data.buffer as ArrayBuffer]);
  } catch (e) {
    port.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
  }
});
