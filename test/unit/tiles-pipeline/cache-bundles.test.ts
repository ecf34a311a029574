import { describe, expect, it } from 'vitest';
import { bundleTileRange } from '../../../activities/tiles/render-bundle.js';
import { lonLatToMercator } from '../../../lib/tiles/web-mercator.js';
import { cacheBundles } from '../../../workflows/tile-cache-bundles.js';

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
