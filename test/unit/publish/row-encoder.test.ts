import { describe, expect, it } from 'vitest';
import { createRowEncoder } from '../../../activities/publish/row-encoder.js';
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

describe('createRowEncoder', () => {
  it('writes one COPY line per usable row: object id from the row number, values, shape and box', () => {
    const encoder = createRowEncoder(plan, { wkid: 4326 });
    const { text, loaded, bounds } = encoder.encode([['Loop', '2024-03-05', '12', '41.5', '-87.5']], 41);
    expect(loaded).toBe(1);
    expect(text).toBe(
      '42\tLoop\t2024-03-05T00:00:00.000Z\t12\t{"x":-87.5,"y":41.5}\t(-87.5,41.5),(-87.5,41.5)\n',
    );
    expect(bounds).toEqual([-87.5, 41.5, -87.5, 41.5]);
  });

  it('projects longitude/latitude to metres', () => {
    const { text } = createRowEncoder(plan, webMercator).encode([['x', '', '', '41.87626', '-87.62823']], 0);
    const x = Number(/"x":([-\d.e]+)/.exec(text)?.[1]);
    expect(x).toBeCloseTo(-9754729.94, 1);
  });

  it('escapes tabs, newlines and backslashes in text and writes empty cells as NULL', () => {
    const { text } = createRowEncoder(plan, webMercator).encode([['a\tb\\c\nd', '', '', '1', '1']], 0);
    expect(text.startsWith('1\ta\\tb\\\\c\\nd\t\\N\t\\N\t')).toBe(true);
  });

  it('rejects rows with unusable coordinates, too-long text or bad numbers, with their reasons', () => {
    const { loaded, rejected } = createRowEncoder(plan, webMercator).encode(
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
  });

  it('stores a handed-over polygon as Esri JSON with its bounding box', () => {
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
    const { text } = createRowEncoder(polygons, { wkid: 4326 }, { wkid: 4326 }).encode([[]], 0, [
      { rings: [ring] },
    ]);
    expect(text).toBe(`1\t{"rings":${JSON.stringify([ring])}}\t(1,1),(0,0)\n`);
  });
});
