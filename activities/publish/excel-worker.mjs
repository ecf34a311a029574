// Runs inside a worker thread with memory limits: a hostile workbook can exhaust or pollute only this
// thread. An xlsx (a zip) is first inflated under the archive budget without keeping anything, so a
// bomb is refused before SheetJS opens it. Sheets come back as arrays of rows (the first row is the
// header); dates as Date values.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';
import * as XLSX from 'xlsx';

register();
const { measureArchive } = await import('../../lib/ingest/archive-budget.ts');

const { bytes, sampleRows, budget } = workerData;
if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
  try {
    await measureArchive(bytes, budget);
  } catch (e) {
    if (e?.name !== 'GeoError') throw e;
    parentPort.postMessage({ error: e.toBody() });
    process.exit(0);
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
parentPort.postMessage({ sheets });
