// Runs inside a worker thread with memory limits: a hostile workbook can exhaust or pollute only this
// thread. Sheets come back as arrays of rows (the first row is the header); dates as Date values.
import { parentPort, workerData } from 'node:worker_threads';
import * as XLSX from 'xlsx';

const { bytes, sampleRows } = workerData;
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
