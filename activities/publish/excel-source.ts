/**
 * Workbooks (xls, xlsx) are untrusted input: SheetJS parses them in a worker thread with a heap cap
 * and a deadline, so a crafted file can neither pollute this process nor exhaust it. An xlsx is a
 * zip: the thread first inflates it under the archive budget, so a bomb is refused before SheetJS
 * opens it.
 */
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../../infra/thread-bundles.js';
import { badRequest, type ErrorBody, GeoError } from '../../lib/errors.js';
import { type ArchiveBudget, DEFAULT_ARCHIVE_BUDGET } from '../../lib/ingest/archive-budget.js';
import type { CellValue } from '../../lib/ingest/index.js';

export interface SheetTable {
  name: string;
  headers: string[];
  rows: CellValue[][];
}

export interface ExcelLimits {
  maxHeapMb?: number;
  timeoutMs?: number;
  archive?: ArchiveBudget;
}

const workerUrl = threadEntry(
  new URL('./excel-work.ts', import.meta.url),
  new URL('./excel-worker.mjs', import.meta.url),
);

export function parseWorkbook(bytes: Buffer, limits: ExcelLimits = {}): Promise<SheetTable[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(), {
      workerData: { bytes, budget: limits.archive ?? DEFAULT_ARCHIVE_BUDGET },
      // Started from its bundle (or its loader entry); inherited loader flags are not needed.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb ?? 1024, maxYoungGenerationSizeMb: 64 },
    });
    const fail = (detail: string) =>
      reject(badRequest('Unable to read the file.', [`The workbook could not be read: ${detail}`]));
    const timer = setTimeout(() => {
      void worker.terminate();
      fail('reading it took too long.');
    }, limits.timeoutMs ?? 120_000);
    worker.once(
      'message',
      (msg: { sheets: { name: string; rows: CellValue[][] }[] } | { error: ErrorBody }) => {
        clearTimeout(timer);
        void worker.terminate();
        if ('error' in msg) reject(new GeoError(msg.error));
        else resolve(msg.sheets.map(toTable));
      },
    );
    worker.once('error', (e) => {
      clearTimeout(timer);
      fail(/memory/i.test(e.message) ? 'it needs more memory than allowed.' : e.message);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) fail(`the reader stopped (exit code ${code}).`);
    });
  });
}

function toTable(sheet: { name: string; rows: CellValue[][] }): SheetTable {
  const [header = [], ...rows] = sheet.rows;
  const headers = header.map((h, i) =>
    h === null || h === undefined || String(h).trim() === '' ? `Field${i + 1}` : String(h),
  );
  const width = headers.length;
  return {
    name: sheet.name,
    headers,
    rows: rows.map((r) => (r.length >= width ? r : [...r, ...Array(width - r.length).fill(null)])),
  };
}

/** The sheet a layer asks for: by index (excelSheetId), by name, or the first. */
export function pickSheet(sheets: SheetTable[], sheet: number | string | undefined): SheetTable {
  const found =
    sheet === undefined
      ? sheets[0]
      : typeof sheet === 'number'
        ? sheets[sheet]
        : sheets.find((s) => s.name.toLowerCase() === sheet.toLowerCase());
  if (!found)
    throw badRequest('Invalid publishParameters.', [`The workbook has no sheet ${JSON.stringify(sheet)}.`]);
  return found;
}
