import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CsvDialect, parseRecords } from '../../../activities/publish/csv-source.js';
import { createRowEncoder } from '../../../activities/publish/row-encoder.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { copyColumns, copyRows, createFeatureTable } from '../../../db/repositories/feature-tables.js';
import type { LayerPlan, PlannedField } from '../../../db/schema/publish-request.js';
import { SHAPE_TEXT } from '../../../lib/query/plan-statements.js';

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
  let lastTable = '';
  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: dir });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function stored(layer: LayerPlan, data: Uint8Array): Promise<Record<string, unknown>[]> {
    const table = `f_${'b'.repeat(32)}_${tables++}`;
    lastTable = table;
    const columns = layer.fields.map((f) => ({ name: f.name, column: f.column, type: f.type }));
    await createFeatureTable(db, table, columns);
    await copyRows(db, table, copyColumns(columns), data);
    const attributes = layer.fields.map((f) => `${f.column}::text as ${f.column}`).join(', ');
    return db.rows(
      sql.raw(
        `select objectid, ${attributes ? `${attributes}, ` : ''}${SHAPE_TEXT}, bbox::text as bbox from ${table} order by objectid`,
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
    // The point's own text is not stored: the shape above was read from its box.
    const [raw] = await db.rows<{ shape: string | null }>(sql.raw(`select shape from ${lastTable}`));
    expect(raw.shape).toBeNull();
  });

  it("reads a point's shape back from its box as the very doubles it was given", async () => {
    // Projected in and out (no projection, no longitude/latitude ranges): the coordinates are stored as
    // read, then written as text by PostgreSQL and parsed here.
    const projected: LayerPlan = { ...plan, sourceSR: { wkid: 3857 } };
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const values = [
      0,
      -0,
      1,
      -1,
      0.1 + 0.2,
      1e-7,
      -1.5e-10,
      5e-324,
      1e21,
      -1.7976931348623157e308,
      123456789,
    ];
    for (let i = 0; i < 500; i++)
      values.push((random() - 0.5) * 4e7, (random() - 0.5) * 1e-3, random() * 1e6);
    const pairs = values.slice(1).map((y, i) => [values[i], y]);
    const rows = pairs.map(([x, y]) => ['p', '', '', String(y), String(x)]);
    const { data, loaded } = createRowEncoder(projected, webMercator).encode(rows, 0);
    expect(loaded).toBe(pairs.length);
    const back = (await stored(projected, data)).map((r) => JSON.parse(r.shape as string));
    expect(back.length).toBe(pairs.length);
    for (let i = 0; i < pairs.length; i++) {
      // String() writes -0 as "0": the cell reads as 0.
      const [x, y] = pairs[i].map((v) => (Object.is(v, -0) ? 0 : v));
      expect(
        Object.is(back[i].x, x) && Object.is(back[i].y, y),
        `${pairs[i]} → ${JSON.stringify(back[i])}`,
      ).toBe(true);
    }
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

  it('keeps a feature without a geometry (null, empty parts) with its values and no shape or box', async () => {
    const polygons: LayerPlan = {
      ...plan,
      fields: [field('name', 'esriFieldTypeString', 0, { length: 20 })],
      geometryType: 'esriGeometryPolygon',
      location: { type: 'geometry' },
    };
    const ring = [
      [0, 0],
      [0, 2],
      [2, 2],
      [0, 0],
    ];
    const { data, loaded, rejected, bounds } = createRowEncoder(
      polygons,
      { wkid: 4326 },
      { wkid: 4326 },
    ).encode([['null'], ['no rings'], ['empty ring'], ['a triangle'], ['a line']], 0, [
      null,
      { rings: [] },
      { rings: [[]] },
      { rings: [ring] },
      { reason: 'A LineString cannot be stored in a esriGeometryPolygon layer.' },
    ]);
    expect({ loaded, rejected: rejected.map((r) => [r.rowNumber, r.reason]) }).toEqual({
      loaded: 4,
      rejected: [[5, 'A LineString cannot be stored in a esriGeometryPolygon layer.']],
    });
    // The extent is the located feature's alone.
    expect(bounds).toEqual([0, 0, 2, 2]);
    expect(await stored(polygons, data)).toEqual([
      { objectid: 1, a_0: 'null', shape: null, bbox: null },
      { objectid: 2, a_0: 'no rings', shape: null, bbox: null },
      { objectid: 3, a_0: 'empty ring', shape: null, bbox: null },
      { objectid: 4, a_0: 'a triangle', shape: `{"rings":${JSON.stringify([ring])}}`, bbox: '(2,2),(0,0)' },
    ]);
  });

  it('rejects a row whose address was not found', () => {
    const addresses: LayerPlan = {
      ...plan,
      fields: [],
      location: { type: 'address' } as LayerPlan['location'],
    };
    const out = createRowEncoder(addresses, { wkid: 4326 }, { wkid: 4326 }).encode([[]], 0, [null]);
    expect({ loaded: out.loaded, reasons: out.rejected.map((r) => r.reason) }).toEqual({
      loaded: 0,
      reasons: ['The address was not found.'],
    });
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

  it('stores handed-over points (x/y, with z, empty, at the pole) and typed numbers as a typed reader gives them', async () => {
    const typed: LayerPlan = {
      ...plan,
      fields: [
        field('small', 'esriFieldTypeSmallInteger', 0),
        field('count', 'esriFieldTypeInteger', 1),
        field('big', 'esriFieldTypeBigInteger', 2),
        field('ratio', 'esriFieldTypeDouble', 3),
        field('single', 'esriFieldTypeSingle', 4),
      ],
      location: { type: 'geometry' },
    };
    // Web Mercator by its formula, apart from the code under test.
    const R = 6378137;
    const merc = (lon: number, lat: number) => [
      (R * lon * Math.PI) / 180,
      R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)),
    ];
    const rows = [
      [-3, 70000, 2 ** 40, 0.1, 0.1],
      [0, -0, -(2 ** 40), -2.5, 3],
      [40000, 1, 1, 1, 1],
      [1, 2 ** 31, 1, 1, 1],
      [1, 1.5, 1, 1, 1],
      [1, 1, 1, 1, 1],
      [1, 1, 1, 1, 1],
    ];
    const geometries = [
      { x: -87.5, y: 41.8 },
      { x: 10, y: 20, z: 5 },
      { x: 1, y: 1 },
      { x: 1, y: 1 },
      { x: 1, y: 1 },
      { x: Number.NaN, y: 1 },
      { x: 0, y: 90 },
    ];
    const { data, loaded, rejected } = createRowEncoder(typed, webMercator, { wkid: 4326 }).encode(
      rows,
      0,
      geometries,
    );
    expect(loaded).toBe(4);
    expect(rejected.map((r) => [r.rowNumber, r.reason])).toEqual([
      [3, 'Value 40000 of small is outside -32768..32767.'],
      [4, 'Value 2147483648 of count is outside -2147483648..2147483647.'],
      [5, "Value '1.5' of count is not an integer."],
    ]);
    const [a, b, empty, pole] = await stored(typed, data);
    // The empty point is kept, its values stored and its geometry not.
    expect(empty).toMatchObject({ objectid: 6, a_0: '1', shape: null, bbox: null });
    // Mercator has no pole: the latitude is held at the square map's edge, where y equals x's half-width.
    expect(JSON.parse(pole.shape as string).y).toBeCloseTo(Math.PI * R, 2);
    expect([a.a_0, a.a_1, a.a_2, a.a_3, a.a_4]).toEqual(['-3', '70000', String(2 ** 40), '0.1', '0.1']);
    expect([b.a_0, b.a_1, b.a_2, b.a_3, b.a_4]).toEqual(['0', '0', String(-(2 ** 40)), '-2.5', '3']);
    const [ax, ay] = merc(-87.5, 41.8);
    const shape = JSON.parse(a.shape as string);
    expect(Object.keys(shape)).toEqual(['x', 'y']);
    expect(shape.x).toBeCloseTo(ax, 6);
    expect(shape.y).toBeCloseTo(ay, 6);
    expect(a.bbox).toBe(`(${shape.x},${shape.y}),(${shape.x},${shape.y})`);
    const z = JSON.parse(b.shape as string);
    expect(Object.keys(z)).toEqual(['x', 'y', 'z']);
    expect([z.x, z.y, z.z].map((v: number) => Math.round(v * 1000) / 1000)).toEqual(
      [...merc(10, 20), 5].map((v) => Math.round(v * 1000) / 1000),
    );
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

  it('writes the same from a batch of plain ASCII only, blank lines and short rows included', () => {
    const dialect = (located.source as { dialect: CsvDialect }).dialect;
    // Without the non-ASCII and NUL lines, the batch takes the path that looks for delimiters only.
    const plain = lines.filter((l) => [...l].every((ch) => ch.charCodeAt(0) > 0 && ch.charCodeAt(0) < 0x80));
    expect(plain.length).toBe(lines.length - 2);
    const text = `${[...plain, ',,,,', '   ', ',x', ...plain].join('\n')}\n`;
    const { strings, bytes, rows } = both(located, dialect, text);
    expect(bytes.records).toBe(rows.length);
    expect(bytes.rejected).toEqual(strings.rejected);
    expect(bytes.loaded).toBe(strings.loaded);
    expect(Buffer.from(bytes.data).equals(Buffer.from(strings.data))).toBe(true);
  });

  it('reads dates from their bytes as the string path does, for every date order and a time zone', () => {
    const dialect = (located.source as { dialect: CsvDialect }).dialect;
    // Drawn dates of ten characters (valid and not, repeated), and a few of other lengths.
    const day = fc
      .tuple(
        fc.integer({ min: 1890, max: 2040 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.constantFrom('-', '/', '.', ' '),
        fc.constantFrom('ymd', 'mdy', 'dmy'),
      )
      .map(([y, m, d, sep, order]) => {
        const [mm, dd] = [String(m).padStart(2, '0'), String(d).padStart(2, '0')];
        if (order === 'ymd') return `${y}${sep}${mm}${sep}${dd}`;
        return order === 'mdy' ? `${mm}${sep}${dd}${sep}${y}` : `${dd}${sep}${mm}${sep}${y}`;
      });
    const cell = fc.oneof(
      { weight: 8, arbitrary: day },
      {
        weight: 1,
        arbitrary: fc.constantFrom('2024-3-5', '2024-03-05T10:00:00Z', '12345678ab', 'abcdefghij'),
      },
    );
    fc.assert(
      fc.property(
        fc.array(cell, { minLength: 1, maxLength: 60 }),
        fc.constantFrom(undefined, 'iso', 'ymd', 'mdy', 'dmy'),
        fc.constantFrom(undefined, 'America/Chicago'),
        (dates, dateFormat, timeZone) => {
          const layer: LayerPlan = {
            ...located,
            timeZone,
            fields: located.fields.map((f) =>
              f.name === 'opened' ? { ...f, ...(dateFormat ? { dateFormat } : {}) } : f,
            ),
          };
          // Each date twice, so the second reading comes from what the first left.
          const text = [...dates, ...dates].map((d, i) => `n${i},${d},1,41.5,-87.5,1,1`).join('\n');
          const { strings, bytes } = both(layer, dialect, `${text}\n`);
          expect(bytes.rejected).toEqual(strings.rejected);
          expect(bytes.loaded).toBe(strings.loaded);
          expect(Buffer.from(bytes.data).equals(Buffer.from(strings.data))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
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
