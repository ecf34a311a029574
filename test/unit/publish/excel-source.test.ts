import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorkbook, pickSheet } from '../../../activities/publish/excel-source.js';

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
