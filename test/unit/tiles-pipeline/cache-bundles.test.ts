import { describe, expect, it } from 'vitest';
import { rangesLieTogether } from '../../../activities/tiles/range-layers.js';
import { bundleTileRange } from '../../../activities/tiles/render-bundle.js';
import { lonLatToMercator } from '../../../lib/tiles/web-mercator.js';
import {
  cacheBundleGroupsFrom,
  cacheBundles,
  GROUP_BUNDLES,
  GROUP_TILES,
} from '../../../workflows/tile-cache-bundles.js';

const [x0, y0] = lonLatToMercator(-87.7, 41.8);
const [x1, y1] = lonLatToMercator(-87.6, 41.9);
const chicago: [number, number, number, number] = [x0, y0, x1, y1];

describe('cacheBundles', () => {
  it('lists one bundle per level for a city-sized extent, in either order', () => {
    expect(cacheBundles(chicago, 8, 13).map((b) => b.level)).toEqual([8, 9, 10, 11, 12, 13]);
    expect(cacheBundles(chicago, 8, 13, 0, { deepestFirst: true }).map((b) => b.level)).toEqual([
      13, 12, 11, 10, 9, 8,
    ]);
  });

  it('names bundles by their top-left tile, a multiple of 128', () => {
    const [b] = cacheBundles(chicago, 13, 13);
    expect(b.row0 % 128).toBe(0);
    expect(b.col0 % 128).toBe(0);
    expect(b).toEqual({ level: 13, row0: 2944, col0: 2048 });
  });

  it('lists every bundle of a level whose tiles span several bundles', () => {
    const world: [number, number, number, number] = [-2e7, -2e7, 2e7, 2e7];
    expect(cacheBundles(world, 8, 8)).toHaveLength(4);
  });

  it('lists nothing when there is no data extent', () => {
    expect(cacheBundles(null, 0, 10)).toEqual([]);
  });
});

describe('bundleTileRange', () => {
  it('limits a bundle to the tiles covering the extent', () => {
    const r = bundleTileRange({ level: 12, row0: 1408, col0: 1024 }, chicago, 0);
    // -87.70° and -87.60° fall in columns 1050 and 1051 of level 12 (9,784 m tiles from -20,037,508 m).
    expect(r).toEqual({ level: 12, minRow: 1522, maxRow: 1523, minCol: 1050, maxCol: 1051 });
  });

  it('is undefined for a bundle the extent does not reach', () => {
    expect(bundleTileRange({ level: 12, row0: 0, col0: 0 }, chicago, 0)).toBeUndefined();
  });
});

describe('cacheBundleGroupsFrom', () => {
  // A state-sized extent: many bundles at the deep levels, one small bundle a level at the low ones.
  const [sx0, sy0] = lonLatToMercator(-91.5, 37.0);
  const [sx1, sy1] = lonLatToMercator(-87.5, 42.5);
  const state: [number, number, number, number] = [sx0, sy0, sx1, sy1];
  const reach = 12;
  // A bundle's tiles, by the drawing side's own range (render-bundle.ts), not the grouping's arithmetic.
  const tilesOf = (b: { level: number; row0: number; col0: number }) => {
    const r = bundleTileRange(b, state, reach);
    return r ? (r.maxRow - r.minRow + 1) * (r.maxCol - r.minCol + 1) : 0;
  };
  const key = (b: { level: number; row0: number; col0: number }) => `${b.level}/${b.row0}/${b.col0}`;

  it('holds every bundle once, in the build order, from any start', () => {
    const order = { deepestFirst: true };
    const all = cacheBundles(state, 0, 15, reach, order).map(key);
    expect(all.length).toBeGreaterThan(40);
    for (const start of [0, 1, 7, all.length - 3, all.length - 1, all.length]) {
      const groups = [...cacheBundleGroupsFrom(state, 0, 15, reach, start, order)];
      expect(groups.flat().map(key)).toEqual(all.slice(start));
    }
  });

  it('groups consecutive small bundles up to the tile bound, a larger bundle alone', () => {
    const groups = [...cacheBundleGroupsFrom(state, 0, 15, reach, 0, { deepestFirst: true })];
    const tiles = groups.map((g) => g.reduce((n, b) => n + tilesOf(b), 0));
    groups.forEach((g, i) => {
      expect(g.length).toBeLessThanOrEqual(GROUP_BUNDLES);
      if (g.length > 1) expect(tiles[i]).toBeLessThanOrEqual(GROUP_TILES);
      // Each group is as long as the bounds let it be: the next bundle would not have fitted.
      const next = groups[i + 1]?.[0];
      if (next && g.length < GROUP_BUNDLES) expect(tiles[i] + tilesOf(next)).toBeGreaterThan(GROUP_TILES);
    });
    // The low levels' small bundles end up together, the deep levels' full bundles alone.
    expect(groups.some((g) => g.length > 1)).toBe(true);
    expect(groups.filter((g) => g.length === 1).every((g) => tilesOf(g[0]) > 0)).toBe(true);
    expect(groups[groups.length - 1].map((b) => b.level)).toContain(0);
  });

  it('puts every bundle in a group of its own with a bound of no tiles', () => {
    const groups = [...cacheBundleGroupsFrom(chicago, 8, 13, 0, 0, {}, 0)];
    expect(groups.map((g) => g.length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect([...cacheBundleGroupsFrom(null, 0, 10)]).toEqual([]);
  });
});

describe('rangesLieTogether', () => {
  const rangesOf = (extent: [number, number, number, number], min: number, max: number) =>
    cacheBundles(extent, min, max, 12)
      .map((b) => bundleTileRange(b, extent, 12))
      .filter((r) => r !== undefined);

  it("reads a city's low levels once: each lies inside the next", () => {
    const low = rangesOf(chicago, 0, 11);
    expect(low).toHaveLength(12);
    expect(rangesLieTogether(low)).toBe(true);
    expect(rangesLieTogether(low.slice(0, 1))).toBe(true);
    expect(rangesLieTogether([])).toBe(true);
  });

  it('reads bundles at opposite corners of a wide extent each on its own, neighbours together', () => {
    const [wx0, wy0] = lonLatToMercator(-118.3, 33.7);
    const [wx1, wy1] = lonLatToMercator(-87.6, 42.1);
    const wide: [number, number, number, number] = [wx0, wy0, wx1, wy1];
    const level13 = rangesOf(wide, 13, 13);
    expect(level13.length).toBeGreaterThan(6);
    const first = level13[0];
    const last = level13[level13.length - 1];
    expect(rangesLieTogether([first, last])).toBe(false);
    expect(rangesLieTogether([first, level13[1]])).toBe(true);
  });
});
