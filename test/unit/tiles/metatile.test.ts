import { describe, expect, it } from 'vitest';
import { metatileOf, metatilesInRange, metatileTiles } from '../../../lib/tiles/metatile.js';
import { tileBounds, tileRange } from '../../../lib/tiles/web-mercator.js';

describe('metatiles', () => {
  it('aligns a 4×4 block to multiples of 4 and spans its tiles exactly', () => {
    const meta = metatileOf({ level: 10, row: 382, col: 261 });
    expect([meta.row0, meta.col0, meta.rows, meta.cols, meta.width, meta.height]).toEqual([
      380, 260, 4, 4, 1024, 1024,
    ]);
    const first = tileBounds({ level: 10, row: 380, col: 260 });
    const last = tileBounds({ level: 10, row: 383, col: 263 });
    expect(meta.bounds).toEqual([first[0], last[1], last[2], first[3]]);
  });

  it('clips blocks to the tile matrix at small levels', () => {
    const meta = metatileOf({ level: 1, row: 1, col: 0 });
    expect([meta.rows, meta.cols, meta.width]).toEqual([2, 2, 512]);
  });

  it('covers a range with blocks and yields only the range tiles of each block', () => {
    const range = tileRange([-9790549.2, 5107204.8, -9740455.4, 5163975.8], 14);
    const metas = [...metatilesInRange(range)];
    const tiles = metas.flatMap((m) => [...metatileTiles(m, range)]);
    const expected = (range.maxRow - range.minRow + 1) * (range.maxCol - range.minCol + 1);
    expect(tiles).toHaveLength(expected);
    expect(new Set(tiles.map((t) => `${t.row}/${t.col}`)).size).toBe(expected);
  });
});
