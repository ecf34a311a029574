import { describe, expect, it } from 'vitest';
import {
  countTiles,
  levelForScale,
  lodOf,
  lonLatToMercator,
  mercatorToLonLat,
  ORIGIN_X,
  ORIGIN_Y,
  tileAt,
  tileBounds,
  tileRange,
  tilesInRange,
  WEB_MERCATOR_LODS,
} from '../../../lib/tiles/web-mercator.js';

describe('web mercator tiling scheme', () => {
  it('has 24 levels, 0 to 23', () => {
    expect(WEB_MERCATOR_LODS.map((l) => l.level)).toEqual(Array.from({ length: 24 }, (_, i) => i));
  });

  it('carries the conf.xml resolution and scale of level 0', () => {
    expect(lodOf(0).resolution).toBe(156543.03392800014);
    expect(lodOf(0).scale).toBe(591657527.591555);
  });

  it('carries the published values of levels 10 and 23', () => {
    expect(lodOf(10).resolution).toBeCloseTo(152.874056570411, 10);
    expect(lodOf(10).scale).toBeCloseTo(577790.554289, 5);
    expect(lodOf(23).resolution).toBe(0.018661383852976);
    expect(lodOf(23).scale).toBe(70.5310735);
  });

  it('keeps scale = resolution × 96 × 39.37 on every level', () => {
    for (const l of WEB_MERCATOR_LODS) expect(l.resolution * 96 * 39.37).toBeCloseTo(l.scale, 3);
  });

  it('halves the resolution from each level to the next', () => {
    for (let i = 1; i < WEB_MERCATOR_LODS.length; i++) {
      expect(WEB_MERCATOR_LODS[i - 1].resolution / WEB_MERCATOR_LODS[i].resolution).toBeCloseTo(2, 8);
    }
  });

  it('rejects a level outside 0–23 with a 400 error', () => {
    expect(() => lodOf(24)).toThrowError(expect.objectContaining({ code: 400 }));
  });

  it('puts the level 0 tile over the whole world square', () => {
    const [xmin, ymin, xmax, ymax] = tileBounds({ level: 0, row: 0, col: 0 });
    expect(xmin).toBe(ORIGIN_X);
    expect(ymax).toBe(ORIGIN_Y);
    expect(xmax).toBeCloseTo(-ORIGIN_X, 0);
    expect(ymin).toBeCloseTo(-ORIGIN_Y, 0);
  });

  it('finds the XYZ tile of Chicago at level 10 (row 380, col 262)', () => {
    const [x, y] = lonLatToMercator(-87.6298, 41.8781);
    expect(tileAt(x, y, 10)).toEqual({ level: 10, row: 380, col: 262 });
  });

  it('returns a tile whose envelope contains the point it was found from', () => {
    const [x, y] = lonLatToMercator(13.405, 52.52);
    const [xmin, ymin, xmax, ymax] = tileBounds(tileAt(x, y, 15));
    expect(x).toBeGreaterThanOrEqual(xmin);
    expect(x).toBeLessThan(xmax);
    expect(y).toBeGreaterThan(ymin);
    expect(y).toBeLessThanOrEqual(ymax);
  });

  it('converts lon/lat to mercator and back', () => {
    const [x, y] = lonLatToMercator(-122.4194, 37.7749);
    expect(x).toBeCloseTo(-13627665.27, 1);
    expect(y).toBeCloseTo(4547675.35, 1);
    const [lon, lat] = mercatorToLonLat(x, y);
    expect(lon).toBeCloseTo(-122.4194, 9);
    expect(lat).toBeCloseTo(37.7749, 9);
  });

  it('covers an extent lying exactly on tile edges without the neighbours', () => {
    const extent = tileBounds({ level: 5, row: 10, col: 12 });
    expect(tileRange(extent, 5)).toEqual({ level: 5, minRow: 10, maxRow: 10, minCol: 12, maxCol: 12 });
  });

  it('covers a point extent with exactly one tile', () => {
    const r = tileRange([1000, 1000, 1000, 1000], 3);
    expect(r).toEqual({ level: 3, minRow: 3, maxRow: 3, minCol: 4, maxCol: 4 });
  });

  it('clamps a range for an extent beyond the world to the tile matrix', () => {
    expect(tileRange([-1e9, -1e9, 1e9, 1e9], 2)).toEqual({
      level: 2,
      minRow: 0,
      maxRow: 3,
      minCol: 0,
      maxCol: 3,
    });
  });

  it('counts the tiles of the whole world over levels 0–3 as 1+4+16+64', () => {
    expect(countTiles([-2e7, -2e7, 2e7, 2e7], 0, 3)).toBe(85);
  });

  it('lists the tiles of a range row by row', () => {
    const tiles = [...tilesInRange({ level: 4, minRow: 1, maxRow: 2, minCol: 5, maxCol: 6 })];
    expect(tiles.map((t) => [t.row, t.col])).toEqual([
      [1, 5],
      [1, 6],
      [2, 5],
      [2, 6],
    ]);
  });

  it('matches a scale to its level within a relative tolerance', () => {
    expect(levelForScale(36111.909643)).toBe(14);
    expect(levelForScale(36000)).toBeUndefined();
  });
});
