import { describe, expect, it } from 'vitest';
import type { Bounds } from '../../../lib/geometry/types.js';
import { defaultLevelRange } from '../../../lib/tiles/level-range.js';
import { countTiles } from '../../../lib/tiles/web-mercator.js';

// The Chicago-sized benchmark extent of the performance notes (≈ 50 × 57 km).
const CHICAGO: Bounds = [-9790549.2, 5107204.8, -9740455.4, 5163975.8];

describe('default cache level range', () => {
  it('starts at the deepest level where the city extent still fits four tiles', () => {
    const { minLevel } = defaultLevelRange(CHICAGO, 100_000);
    expect(minLevel).toBe(9);
  });

  it('stops where 100 k points over a city are on average 16 px apart (level 14)', () => {
    expect(defaultLevelRange(CHICAGO, 100_000).maxLevel).toBe(14);
  });

  it('stops earlier for sparser data and later for denser data', () => {
    expect(defaultLevelRange(CHICAGO, 1_000).maxLevel).toBe(11);
    expect(defaultLevelRange(CHICAGO, 10_000_000).maxLevel).toBe(18);
  });

  it('caps the deepest level', () => {
    expect(defaultLevelRange(CHICAGO, 10_000_000, { maxLevelCap: 15 }).maxLevel).toBe(15);
  });

  it('drops deep levels until the range fits the tile budget', () => {
    const range = defaultLevelRange(CHICAGO, 10_000_000, { maxTiles: 1000 });
    expect(countTiles(CHICAGO, range.minLevel, range.maxLevel)).toBeLessThanOrEqual(1000);
    expect(countTiles(CHICAGO, range.minLevel, range.maxLevel + 1)).toBeGreaterThan(1000);
  });

  it('gives a single point every level from 0 to the point default depth', () => {
    expect(defaultLevelRange([100, 100, 100, 100], 1)).toEqual({ minLevel: 0, maxLevel: 16 });
  });

  it('covers a world-wide dataset from level 0 or 1', () => {
    const range = defaultLevelRange([-2e7, -1.9e7, 2e7, 1.9e7], 200);
    expect(range.minLevel).toBe(1);
    expect(range.maxLevel).toBeGreaterThanOrEqual(range.minLevel);
  });
});
