import { describe, expect, it } from 'vitest';
import { coerceRow, parseCellValue } from '../../../lib/ingest/cell-values.js';
import type { InferredField } from '../../../lib/ingest/field-types.js';
import { inferFields } from '../../../lib/ingest/infer-fields.js';
import { fixtureRows } from './read-fixture.js';

const field = (type: InferredField['type'], extra: Partial<InferredField> = {}) => ({
  name: 'f',
  type,
  ...extra,
});

describe('parseCellValue', () => {
  it('gives null for empty cells of any type', () => {
    expect(parseCellValue('', field('esriFieldTypeInteger'))).toEqual({ ok: true, value: null });
    expect(parseCellValue('   ', field('esriFieldTypeDate'))).toEqual({ ok: true, value: null });
    expect(parseCellValue(null, field('esriFieldTypeString'))).toEqual({ ok: true, value: null });
  });

  it('parses integers and rejects fractions and values outside 32 bits', () => {
    expect(parseCellValue('-42', field('esriFieldTypeInteger'))).toEqual({ ok: true, value: -42 });
    expect(parseCellValue('4.5', field('esriFieldTypeInteger')).ok).toBe(false);
    expect(parseCellValue('2147483648', field('esriFieldTypeInteger')).ok).toBe(false);
    expect(parseCellValue('40000', field('esriFieldTypeSmallInteger')).ok).toBe(false);
  });

  it('parses doubles, with a decimal comma only when told to', () => {
    expect(parseCellValue('1.5e3', field('esriFieldTypeDouble'))).toEqual({ ok: true, value: 1500 });
    expect(parseCellValue('48,8566', field('esriFieldTypeDouble')).ok).toBe(false);
    expect(parseCellValue('48,8566', field('esriFieldTypeDouble'), { decimalComma: true })).toEqual({
      ok: true,
      value: 48.8566,
    });
  });

  it('says why a value is unusable', () => {
    const r = parseCellValue('n/a', field('esriFieldTypeDouble', { name: 'avg_wait' }));
    expect(r).toEqual({ ok: false, reason: "Value 'n/a' of avg_wait is not a number." });
  });

  it('turns dates into epoch milliseconds in the column format', () => {
    expect(parseCellValue('1895-10-03T05:00:00Z', field('esriFieldTypeDate', { dateFormat: 'iso' }))).toEqual(
      {
        ok: true,
        value: Date.UTC(1895, 9, 3, 5),
      },
    );
    expect(parseCellValue('14/07/2020', field('esriFieldTypeDate', { dateFormat: 'dmy' }))).toEqual({
      ok: true,
      value: Date.UTC(2020, 6, 14),
    });
    expect(parseCellValue('12/31/2024 4:30 PM', field('esriFieldTypeDate', { dateFormat: 'mdy' }))).toEqual({
      ok: true,
      value: Date.UTC(2024, 11, 31, 16, 30),
    });
  });

  it('reads ISO offsets and takes naive times in the given time zone', () => {
    const iso = field('esriFieldTypeDate', { dateFormat: 'iso' });
    expect(parseCellValue('2024-07-01T12:00:00+02:00', iso)).toEqual({
      ok: true,
      value: Date.UTC(2024, 6, 1, 10),
    });
    // Chicago is UTC-5 in July (daylight time) and UTC-6 in January.
    expect(parseCellValue('2024-07-01 12:00', iso, { timeZone: 'America/Chicago' })).toEqual({
      ok: true,
      value: Date.UTC(2024, 6, 1, 17),
    });
    expect(parseCellValue('2024-01-15T12:00:00', iso, { timeZone: 'Central Standard Time' })).toEqual({
      ok: true,
      value: Date.UTC(2024, 0, 15, 18),
    });
  });

  it('reads a dotted date day first', () => {
    expect(parseCellValue('05.03.2024', field('esriFieldTypeDate', { dateFormat: 'dmy' }))).toEqual({
      ok: true,
      value: Date.UTC(2024, 2, 5),
    });
  });

  it('rejects a date that does not exist', () => {
    expect(parseCellValue('2023-02-29', field('esriFieldTypeDate', { dateFormat: 'iso' })).ok).toBe(false);
  });

  it('rejects text longer than the field', () => {
    expect(parseCellValue('abcdef', field('esriFieldTypeString', { length: 5 })).ok).toBe(false);
    expect(parseCellValue('abcde', field('esriFieldTypeString', { length: 5 }))).toEqual({
      ok: true,
      value: 'abcde',
    });
  });

  it('stores typed spreadsheet values: numbers as numbers, Date objects as epoch ms', () => {
    expect(parseCellValue(7, field('esriFieldTypeInteger'))).toEqual({ ok: true, value: 7 });
    expect(parseCellValue(new Date(Date.UTC(2020, 0, 1)), field('esriFieldTypeDate'))).toEqual({
      ok: true,
      value: Date.UTC(2020, 0, 1),
    });
    expect(parseCellValue(true, field('esriFieldTypeString'))).toEqual({ ok: true, value: 'true' });
  });
});

describe('coerceRow', () => {
  const { headers, rows } = fixtureRows('transit-stations.csv');
  const fields = inferFields(rows, { headers });

  it('maps a record keyed by header to attributes keyed by field name', () => {
    const r = coerceRow(rows[3], fields);
    expect(r).toEqual({
      ok: true,
      attributes: {
        station_id: 4,
        name: "O'Hare",
        ZIP: '60666',
        Latitude: 41.97766526,
        Longitude: -87.90422307,
        riders: 13700,
        avg_wait: 6.75,
        opened: Date.UTC(1984, 8, 3, 5),
        card_serial: '14',
        notes: 'Airport, Blue Line',
      },
    });
  });

  it('reads a row array by column position', () => {
    const r = coerceRow(['9', 'Belmont'], [fields[0], fields[1]]);
    expect(r).toEqual({ ok: true, attributes: { station_id: 9, name: 'Belmont' } });
  });

  it('marks a row bad at its first unusable cell', () => {
    const r = coerceRow({ ...rows[0], riders: 'many' }, fields);
    expect(r).toEqual({ ok: false, field: 'riders', reason: "Value 'many' of riders is not an integer." });
  });
});
