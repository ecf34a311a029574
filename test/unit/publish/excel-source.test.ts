import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorkbook, pickSheet } from '../../../activities/publish/excel-source.js';
import { writeZip, zipBomb } from '../../fixtures/ingest/zip-writer.js';

const workbook = readFileSync(
  join(import.meta.dirname, '..', '..', 'fixtures', 'publish', 'transit-two-sheets.xlsx'),
);

describe('parseWorkbook', () => {
  it('reads every sheet with its header and typed cells', async () => {
    const sheets = await parseWorkbook(workbook);
    expect(sheets.map((s) => s.name)).toEqual(['Stations', 'Depots']);
    expect(sheets[0].headers).toEqual(['Station', 'Line', 'Opened', 'Riders', 'Latitude', 'Longitude']);
    expect(sheets[0].rows[0][3]).toBe(18500);
    expect(sheets[0].rows[0][2]).toBeInstanceOf(Date);
  });

  it('stops a reader that exceeds its memory limit instead of exhausting the process', async () => {
    await expect(parseWorkbook(workbook, { maxHeapMb: 1 })).rejects.toThrow(/Unable to read the file/);
  });

  it('stops a reader that exceeds its deadline', async () => {
    await expect(parseWorkbook(workbook, { timeoutMs: 1 })).rejects.toThrow(/Unable to read the file/);
  });

  it('keeps a crafted __proto__ sheet from polluting the process', async () => {
    const crafted = Buffer.from('__proto__,polluted\n{"isAdmin":true},yes\n');
    const sheets = await parseWorkbook(crafted);
    expect(sheets[0].headers).toEqual(['__proto__', 'polluted']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe('pickSheet', () => {
  it('finds a sheet by index or by name, case-insensitively', async () => {
    const sheets = await parseWorkbook(workbook);
    expect(pickSheet(sheets, 1).name).toBe('Depots');
    expect(pickSheet(sheets, 'stations').name).toBe('Stations');
    expect(() => pickSheet(sheets, 'Missing')).toThrow(/Invalid publishParameters/);
  });
});

describe('parseWorkbook of hostile workbooks', () => {
  it('refuses an xlsx that is a zip bomb before SheetJS opens it', async () => {
    const bomb = zipBomb('xl/worksheets/sheet1.xml', 4096);
    await expect(parseWorkbook(bomb)).rejects.toThrow(
      expect.objectContaining({
        code: 400,
        details: ['The archive inflates to more than 100 times its compressed size (ARCHIVE_MAX_RATIO).'],
      }),
    );
  });

  it('refuses an xlsx with a zip-slip entry name', async () => {
    const zip = writeZip([{ name: '../../xl/workbook.xml', data: Buffer.from('<x/>'), method: 0 }]);
    await expect(parseWorkbook(zip)).rejects.toThrow(
      expect.objectContaining({ details: [`The entry name "../../xl/workbook.xml" has a '..' segment.`] }),
    );
  });
});
