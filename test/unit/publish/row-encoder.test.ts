import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CsvDialect, parseRecords } from '../../../activities/publish/csv-source.js';
import { createRowEncoder } from '../../../activities/publish/row-encoder.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { copyColumns, copyRows, createFeatureTable } from '../../../db/repositories/feature-tables.js';
import type { LayerPlan, PlannedField } from '../../../db/schema/publish-request.js';

const field = (
  name: string,
  type: PlannedField['type'],
  sourceIndex: number,
  extra: Partial<PlannedField> = {},
): PlannedField => ({
  name,
  alias: name,
  type,
  sourceIndex,
  column: `a_${sourceIndex}`,
  locationType: 'unknown',
  ...extra,
});

const plan: LayerPlan = {
  id: 0,
  name: 'places',
  tableName: `f_${'a'.repeat(32)}_0`,
  headers: ['name', 'opened', 'visits', 'lat', 'lon'],
  fields: [
    field('name', 'esriFieldTypeString', 0, { length: 20 }),
    field('opened', 'esriFieldTypeDate', 1, { dateFormat: 'iso' }),
    field('visits', 'esriFieldTypeInteger', 2),
  ],
  geometryType: 'esriGeometryPoint',
  location: { type: 'coordinates', xIndex: 4, yIndex: 3 },
  source: { kind: 'features' },
  sourceSR: { wkid: 4326 },
  decimalComma: false,
};
const webMercator = { wkid: 102100, latestWkid: 3857 };

// The encoder writes binary COPY data: each case loads it into a feature table (embedded PGlite)
// and reads back what is stored, in PostgreSQL's own text forms.
describe('createRowEncoder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'row-encoder-'));
  let db: DatabaseHandle;
  let tables = 0;
  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: dir });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function stored(layer: LayerPlan, data: Uint8Array): Promise<Record<string, unknown>[]> {
    const table = `f_${'b'.repeat(32)}_${tables++}`;
    const columns = layer.fields.map((f) => ({ name: f.name, column: f.column, type: f.type }));
    await createFeatureTable(db, table, columns);
    await copyRows(db, table, copyColumns(columns), data);
    const attributes = layer.fields.map((f) => `${f.column}::text as ${f.column}`).join(', ');
    return db.rows(
      sql.raw(
        `select objectid, ${attributes ? `${attributes}, ` : ''}shape, bbox::text as bbox from ${table} order by objectid`,
      ),
    );
  }

  it('writes one COPY row per usable row: object id from the row number, values, shape and box', async () => {
    const encoder = createRowEncoder(plan, { wkid: 4326 });
    const { data, loaded, bounds } = encoder.encode([['Loop', '2024-03-05', '12', '41.5', '-87.5']], 41);
    expect(loaded).toBe(1);
    expect(await stored(plan, data)).toEqual([
      {
        objectid: 42,
        a_0: 'Loop',
        a_1: '2024-03-05 00:00:00+00',
        a_2: '12',
        shape: '{"x":-87.5,"y":41.5}',
        bbox: '(-87.5,41.5),(-87.5,41.5)',
      },
    ]);
    expect(bounds).toEqual([-87.5, 41.5, -87.5, 41.5]);
  });

  it('projects longitude/latitude to metres', async () => {
    const { data } = createRowEncoder(plan, webMercator).encode([['x', '', '', '41.87626', '-87.62823']], 0);
    const [row] = await stored(plan, data);
    expect(JSON.parse(row.shape as string).x).toBeCloseTo(-9754729.94, 1);
    expect(row.bbox).toMatch(/^\(-9754729\.9\d*,5142\d+\.\d+\),\(-9754729\.9\d*,5142\d+\.\d+\)$/);
  });

  it('keeps tabs, newlines, backslashes and accents in text and writes empty cells as NULL', async () => {
    const { data } = createRowEncoder(plan, webMercator).encode(
      [
        ['a\tb\\c\nd', '', '', '1', '1'],
        ['Zürich, 東京', '', '0', '1', '1'],
      ],
      0,
    );
    const rows = await stored(plan, data);
    expect(rows.map((r) => [r.a_0, r.a_1, r.a_2])).toEqual([
      ['a\tb\\c\nd', null, null],
      ['Zürich, 東京', null, '0'],
    ]);
  });

  it('reads numbers with the same double PostgreSQL reads from their text', async () => {
    const measured: LayerPlan = {
      ...plan,
      fields: [
        field('value', 'esriFieldTypeDouble', 0),
        field('single', 'esriFieldTypeSingle', 1),
        field('big', 'esriFieldTypeBigInteger', 2),
        field('small', 'esriFieldTypeSmallInteger', 3),
      ],
      location: { type: 'none' },
      geometryType: null,
    };
    const values = [
      ['0.1', '3.3', '-9007199254740991', '-32768'],
      ['-87.940000', '1e3', '12', '7'],
      ['123456789012345.12345678901234567', '-0', '0', '-0'],
      [' 2.5 ', '', '4294967296', ' 12 '],
    ];
    const { data, loaded } = createRowEncoder(measured, { wkid: 4326 }).encode(values, 0);
    expect(loaded).toBe(4);
    const rows = await stored(measured, data);
    const text = values.map((v) => [
      v[0].trim(),
      v[1] === '' ? null : v[1],
      v[2],
      v[3].trim() === '-0' ? '0' : v[3].trim(),
    ]);
    const asText = await db.rows<Record<string, string | null>>(
      sql.raw(
        `select ${text
          .map(
            (t, i) =>
              `'${t[0]}'::float8::text as d${i}, ${t[1] === null ? 'null' : `'${t[1]}'::real::text`} as s${i}`,
          )
          .join(', ')}`,
      ),
    );
    expect(rows.map((r) => [r.a_0, r.a_1, r.a_2, r.a_3])).toEqual(
      text.map((t, i) => [asText[0][`d${i}`], asText[0][`s${i}`], t[2], t[3]]),
    );
  });

  it('rejects rows with unusable coordinates, too-long text or bad numbers, with their reasons', async () => {
    const { data, loaded, rejected } = createRowEncoder(plan, webMercator).encode(
      [
        ['ok', '', '1', '10', '10'],
        ['bad coordinates', '', '1', 'north', '10'],
        ['out of range', '', '1', '95', '10'],
        ['a name far longer than twenty characters', '', '1', '1', '1'],
        ['bad number', '', '1.5', '1', '1'],
      ],
      0,
    );
    expect(loaded).toBe(1);
    expect(rejected.map((r) => [r.rowNumber, r.reason])).toEqual([
      [2, "Invalid coordinates '10', 'north'."],
      [3, 'Coordinates 10, 95 are outside longitude/latitude ranges.'],
      [4, 'Value of name is 40 characters long; the field holds 20.'],
      [5, "Value '1.5' of visits is not an integer."],
    ]);
    expect(rejected[0].record).toEqual(['bad coordinates', '', '1', 'north', '10']);
    expect((await stored(plan, data)).map((r) => [r.objectid, r.a_0])).toEqual([[1, 'ok']]);
  });

  it('stores a handed-over polygon as Esri JSON with its bounding box', async () => {
    const polygons: LayerPlan = {
      ...plan,
      fields: [],
      geometryType: 'esriGeometryPolygon',
      location: { type: 'geometry' },
    };
    const ring = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 0],
      [0, 0],
    ];
    const { data } = createRowEncoder(polygons, { wkid: 4326 }, { wkid: 4326 }).encode([[]], 0, [
      { rings: [ring] },
    ]);
    expect(await stored(polygons, data)).toEqual([
      { objectid: 1, shape: `{"rings":${JSON.stringify([ring])}}`, bbox: '(1,1),(0,0)' },
    ]);
  });
});

describe('encodeDelimited', () => {
  const located: LayerPlan = {
    ...plan,
    fields: [
      field('name', 'esriFieldTypeString', 0, { length: 12 }),
      field('opened', 'esriFieldTypeDate', 1),
      field('visits', 'esriFieldTypeInteger', 2),
      field('score', 'esriFieldTypeDouble', 5),
      field('rank', 'esriFieldTypeSmallInteger', 6),
    ],
    source: {
      kind: 'csv',
      dialect: { encoding: 'utf-8', delimiter: ',', qualifier: '"', newline: '\n' },
      dataOffset: 0,
    },
  };
  const lines = [
    'Loop,2024-03-05,12,41.5,-87.5,0.25,3',
    '',
    ' , ,\t, , ',
    'Zürich,05/03/2024,7,47.37,8.54,1e2,-0',
    'short row,2024-01-01',
    'far too long a name,2024-01-01,1,1,1,1,1',
    'bad number,,1.5,1,1,,',
    'bad place,,1,north,1,,',
    'spaces, 2024-03-05 , 12 ,41.5, -87.5 ,2.50,00',
    'nul\u0000here,,1,1,1,,',
    'last,2024-03-06,0,-33.9,151.2,-0.000001,32767',
  ];

  /** The same records through parseRecords and the string encoder, and straight from the bytes. */
  function both(layer: LayerPlan, dialect: CsvDialect, text: string, encoding: 'utf-8' | 'latin1' = 'utf-8') {
    const bytes = encoding === 'latin1' ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
    const encoder = createRowEncoder(layer, webMercator);
    const rows = parseRecords(bytes, dialect);
    return { strings: encoder.encode(rows, 10), bytes: encoder.encodeDelimited(bytes, dialect, 10), rows };
  }

  it('writes what parseRecords and encode write, row for row, rejections included', () => {
    const dialect = (located.source as { dialect: CsvDialect }).dialect;
    const { strings, bytes, rows } = both(located, dialect, `${lines.join('\n')}\n`);
    expect(bytes.records).toBe(rows.length);
    expect(bytes.rejected).toEqual(strings.rejected);
    expect(bytes.rejected.map((r) => r.rowNumber)).toEqual([13, 14, 15, 16, 18]);
    expect(bytes.rejected[4].reason).toBe('Value of name contains a NUL character.');
    expect(bytes.loaded).toBe(strings.loaded);
    expect(Buffer.from(bytes.data).equals(Buffer.from(strings.data))).toBe(true);
  });

  it('reads CRLF lines (a bare LF stays in its field), Latin-1, semicolons and decimal commas alike', () => {
    const dialect: CsvDialect = { encoding: 'latin1', delimiter: ';', qualifier: '"', newline: '\r\n' };
    const comma: LayerPlan = { ...located, decimalComma: true };
    const text = `${lines.map((l) => l.replaceAll(',', ';').replace('41.5', '41,5')).join('\r\n')}\r\nline\nbreak;;1;2;3;4,5;6`;
    const { strings, bytes, rows } = both(comma, dialect, text, 'latin1');
    expect(bytes.records).toBe(rows.length);
    expect(bytes.rejected).toEqual(strings.rejected);
    expect(Buffer.from(bytes.data).equals(Buffer.from(strings.data))).toBe(true);
  });
});
