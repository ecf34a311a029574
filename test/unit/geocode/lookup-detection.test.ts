import { describe, expect, it } from 'vitest';
import { BoundaryLookup, type BoundaryRecord } from '../../../lib/geocode/boundary-lookup.js';
import { detectLookupColumn } from '../../../lib/geocode/lookup-detection.js';

const square = (x: number, y: number) => ({
  rings: [
    [
      [x, y],
      [x, y + 1],
      [x + 1, y + 1],
      [x + 1, y],
      [x, y],
    ],
  ],
});
const boundary = (
  kind: BoundaryRecord['kind'],
  name: string,
  codes: string[],
  x: number,
): BoundaryRecord => ({
  kind,
  name,
  codes,
  aliases: [],
  polygon: square(x, 0),
});

const lookup = new BoundaryLookup([
  boundary('country', 'France', ['FR', 'FRA'], 0),
  boundary('country', 'Germany', ['DE', 'DEU'], 1),
  boundary('country', 'Spain', ['ES', 'ESP'], 2),
  boundary('region', 'Texas', ['TX'], 3),
  boundary('region', 'Illinois', ['IL'], 4),
  boundary('postal', '60601', ['60601'], 5),
  boundary('postal', '60606', ['60606'], 6),
]);

describe('finding the column to publish by lookup', () => {
  it('finds a column of country names among other columns', () => {
    const rows = [
      { name: 'a', land: 'France', sales: 10 },
      { name: 'b', land: 'Germany', sales: 20 },
      { name: 'c', land: 'spain', sales: 30 },
    ];
    expect(detectLookupColumn(rows, ['name', 'land', 'sales'], lookup)).toEqual({
      field: 'land',
      kind: 'country',
      matchedShare: 1,
    });
  });

  it('reads a numbers-only column as postal codes, never as numeric country codes', () => {
    const rows = [{ zip: '60601' }, { zip: 60606 }, { zip: '60601' }];
    expect(detectLookupColumn(rows, ['zip'], lookup)?.kind).toBe('postal');
  });

  it('finds state codes as regions', () => {
    const rows = [{ st: 'TX' }, { st: 'IL' }, { st: 'il' }];
    expect(detectLookupColumn(rows, ['st'], lookup)).toMatchObject({ field: 'st', kind: 'region' });
  });

  it('finds nothing when too few values match', () => {
    const rows = [{ city: 'France' }, { city: 'Lyon' }, { city: 'Nice' }];
    expect(detectLookupColumn(rows, ['city'], lookup)).toBeUndefined();
  });
});
