import { describe, expect, it } from 'vitest';
import { inferFields, stringLength } from '../../../lib/ingest/infer-fields.js';
import { fixtureRows } from './read-fixture.js';

const typesOf = (fields: { name: string; type: string }[]) =>
  Object.fromEntries(fields.map((f) => [f.name, f.type]));

describe('inferFields on a table of stations', () => {
  const { headers, rows } = fixtureRows('transit-stations.csv');
  const fields = inferFields(rows, { headers });

  it('gives each column the narrowest type all its values fit', () => {
    expect(typesOf(fields)).toEqual({
      station_id: 'esriFieldTypeInteger',
      name: 'esriFieldTypeString',
      ZIP: 'esriFieldTypeString',
      Latitude: 'esriFieldTypeDouble',
      Longitude: 'esriFieldTypeDouble',
      riders: 'esriFieldTypeInteger',
      avg_wait: 'esriFieldTypeDouble',
      opened: 'esriFieldTypeDate',
      card_serial: 'esriFieldTypeString',
      notes: 'esriFieldTypeString',
    });
  });

  it('keeps codes with leading zeros as text', () => {
    expect(fields.find((f) => f.name === 'ZIP')?.type).toBe('esriFieldTypeString');
  });

  it('keeps integers too large for a double exactly as text', () => {
    expect(fields.find((f) => f.name === 'card_serial')?.type).toBe('esriFieldTypeString');
  });

  it('gives string fields the 256-character minimum length', () => {
    expect(fields.find((f) => f.name === 'notes')?.length).toBe(256);
  });

  it('records the date format of a date column and where each column comes from', () => {
    const opened = fields.find((f) => f.name === 'opened');
    expect(opened?.dateFormat).toBe('iso');
    expect(opened?.source).toBe('opened');
    expect(opened?.sourceIndex).toBe(7);
  });
});

describe('inferFields decisions', () => {
  const single = (values: (string | number | null)[], options = {}) =>
    inferFields({ names: ['v'], columns: [values] }, options)[0];

  it('widens integers mixed with reals to Double', () => {
    expect(single(['1', '2.5', '']).type).toBe('esriFieldTypeDouble');
  });

  it('makes integers beyond 32 bits Double, or BigInteger when asked', () => {
    expect(single(['1', '3000000000']).type).toBe('esriFieldTypeDouble');
    expect(single(['1', '3000000000'], { bigInteger: true }).type).toBe('esriFieldTypeBigInteger');
  });

  it('keeps a column mixing date formats as text', () => {
    expect(single(['2024-03-05', '03/06/2024']).type).toBe('esriFieldTypeString');
  });

  it('reads slashed dates month first unless a value can only be day first', () => {
    expect(single(['03/05/2024', '12/31/2024 4:30 PM']).dateFormat).toBe('mdy');
    expect(single(['03/05/2024', '25/05/2024']).dateFormat).toBe('dmy');
    expect(single(['2024/03/05 14:30']).dateFormat).toBe('ymd');
  });

  it('reads dotted dates day first', () => {
    const f = single(['05.03.2024', '31.12.2024 23:59']);
    expect([f.type, f.dateFormat]).toEqual(['esriFieldTypeDate', 'dmy']);
  });

  it('keeps a column that cannot be read one way for every value as text', () => {
    expect(single(['13/01/2024', '01/13/2024']).type).toBe('esriFieldTypeString');
  });

  it('keeps impossible dates as text', () => {
    expect(single(['2023-02-29']).type).toBe('esriFieldTypeString');
  });

  it('makes a column of dates mixed with numbers text', () => {
    expect(single(['2024-03-05', '17']).type).toBe('esriFieldTypeString');
  });

  it('reads decimal commas as numbers only when told to', () => {
    expect(single(['48,8566', '2,35']).type).toBe('esriFieldTypeString');
    expect(single(['48,8566', '2,35'], { decimalComma: true }).type).toBe('esriFieldTypeDouble');
  });

  it('makes an all-empty column a string', () => {
    expect(single([null, '', '  ']).type).toBe('esriFieldTypeString');
  });

  it('takes typed values from spreadsheets as they are', () => {
    const fields = inferFields([{ n: 3, opened: new Date('2024-01-01T00:00:00Z'), flag: true }]);
    expect(typesOf(fields)).toEqual({
      n: 'esriFieldTypeInteger',
      opened: 'esriFieldTypeDate',
      flag: 'esriFieldTypeString',
    });
  });

  it('lengthens string fields to the next power of two above the longest value', () => {
    expect(single(['x'.repeat(300)]).length).toBe(512);
    expect(stringLength(256)).toBe(256);
    expect(stringLength(1025)).toBe(2048);
  });
});

describe('inferFields naming', () => {
  it('makes headers valid names and keeps the original as alias', () => {
    const fields = inferFields({
      names: ['A1-Address', 'Volume m3', '2020 Pop', 'Café', 'OBJECTID', 'select'],
      columns: [],
    });
    expect(fields.map((f) => [f.name, f.alias])).toEqual([
      ['A1_Address', 'A1-Address'],
      ['Volume_m3', 'Volume m3'],
      ['F2020_Pop', '2020 Pop'],
      ['Cafe', 'Café'],
      ['OBJECTID_', 'OBJECTID'],
      ['select_', 'select'],
    ]);
  });
});
