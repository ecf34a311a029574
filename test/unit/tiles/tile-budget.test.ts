import { describe, expect, it } from 'vitest';
import type { Bounds } from '../../../lib/geometry/types.js';
import { checkTileBudget } from '../../../lib/tiles/tile-budget.js';
import { WORLD_HALF } from '../../../lib/tiles/web-mercator.js';
import { cacheBundles, cacheBundlesFrom, countCacheBundles } from '../../../workflows/tile-cache-bundles.js';

const world: Bounds = [-WORLD_HALF, -WORLD_HALF, WORLD_HALF, WORLD_HALF];
// Chicago in Web Mercator.
const chicago: Bounds = [-9780000, 5120000, -9735000, 5165000];

describe('checkTileBudget', () => {
  it('allows a range within the budget', () => {
    // Levels 0–3 over the world: 1 + 4 + 16 + 64 = 85 tiles.
    expect(() => checkTileBudget(world, 0, 3, 85)).not.toThrow();
  });

  it('refuses a range over the budget, naming the budget and its variable', () => {
    expect(() => checkTileBudget(world, 0, 3, 84)).toThrow(
      expect.objectContaining({
        code: 400,
        message: 'Unable to build the tile cache.',
        details: [expect.stringMatching(/more than the tile budget of 84 \(TILE_BUILD_MAX_TILES\)/)],
      }),
    );
  });

  it('refuses level 0–23 over the world at once', () => {
    const started = Date.now();
    expect(() => checkTileBudget(world, 0, 23, 5_000_000)).toThrow(
      expect.objectContaining({
        details: [expect.stringMatching(/× 10\^13 tiles, more than the tile budget of 5000000/)],
      }),
    );
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('has nothing to check without an extent', () => {
    expect(() => checkTileBudget(null, 0, 23, 1)).not.toThrow();
  });
});

describe('lazy bundle enumeration', () => {
  it('counts and yields the same bundles the list holds, from any start', () => {
    const all = cacheBundles(chicago, 8, 15, 12);
    expect(countCacheBundles(chicago, 8, 15, 12)).toBe(all.length);
    for (const start of [0, 1, 5, all.length - 1, all.length]) {
      expect([...cacheBundlesFrom(chicago, 8, 15, 12, start)]).toEqual(all.slice(start));
    }
  });

  it('yields the same bundles deepest level first, and resumes in that order from any start', () => {
    const upwards = cacheBundles(chicago, 8, 15, 12);
    const deepest = cacheBundles(chicago, 8, 15, 12, { deepestFirst: true });
    // The same set, levels from 15 down to 8, each level's bundles in the same order as before.
    expect(deepest.map((b) => b.level)).toEqual([...upwards.map((b) => b.level)].sort((a, b) => b - a));
    for (let level = 8; level <= 15; level++) {
      expect(deepest.filter((b) => b.level === level)).toEqual(upwards.filter((b) => b.level === level));
    }
    for (const start of [0, 1, 5, deepest.length - 1, deepest.length]) {
      expect([...cacheBundlesFrom(chicago, 8, 15, 12, start, { deepestFirst: true })]).toEqual(
        deepest.slice(start),
      );
    }
  });

  it('counts a world cache at level 23 without listing it', () => {
    const started = Date.now();
    // 2^23 tiles a side in bundles of 128: 65,536 × 65,536 bundles.
    expect(countCacheBundles(world, 23, 23)).toBe(65_536 * 65_536);
    const far = cacheBundlesFrom(world, 23, 23, 0, 65_536 * 65_536 - 1).next().value;
    expect(far).toEqual({ level: 23, row0: 65_535 * 128, col0: 65_535 * 128 });
    expect(Date.now() - started).toBeLessThan(100);
  });
});
