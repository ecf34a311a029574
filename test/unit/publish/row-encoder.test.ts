import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
