/**
 * Runs inside a worker thread with memory limits (excel-source.ts): a hostile workbook can exhaust or
 * pollute only this thread. An xlsx (a zip) is first inflated under the archive budget without keeping
 * anything, so a bomb is refused before SheetJS opens it. Sheets come back as arrays of rows (the first
 * row is the header); dates as Date values.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as XLSX from 'xlsx';
import { GeoError } from '../../lib/errors.js';
import { type ArchiveBudget, measureArchive } from '../../lib/ingest/archive-budget.js';

if (!parentPort) throw new Error('The workbook reader runs in a worker thread.');
const port = parentPort;
const { bytes, sampleRows, budget } = workerData as {
  bytes: Uint8Array;
  sampleRows?: number;
  budget: ArchiveBudget;
};

async function read(): Promise<void> {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    try {
      await measureArchive(bytes, budget);
    } catch (e) {
      if (!(e instanceof GeoError)) throw e;
      port.postMessage({ error: e.toBody() });
      return;
    }
  }
  const workbook = XLSX.read(bytes, {
    type: 'buffer',
    cellDates: true,
    dense: true,
    cellHTML: false,
    cellFormula: false,
  });
  const sheets = workbook.SheetNames.map((name) => {
    const rows = XLSX.utils.sheet_to_json(workbook.Sheets[name], {
      header: 1,
      raw: true,
      defval: null,
      blankrows: false,
      ...(sampleRows ? { sheetRows: sampleRows + 1 } : {}),
    });
    return { name, rows };
  });
  port.postMessage({ sheets });
}

await read();
