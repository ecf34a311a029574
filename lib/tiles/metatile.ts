import type { Bounds } from '../geometry/types.js';
import { matrixSize, TILE_SIZE, type TileAddress, type TileRange, tileBounds } from './web-mercator.js';

/**
 * A block of up to n×n tiles rendered as one image and cut into tiles afterwards (MapServer and
 * Mapnik seed this way: one feature query and one draw pass per block instead of per tile).
 * Blocks are aligned to multiples of n and clipped to the world's tile matrix.
 */
export interface Metatile {
  level: number;
  row0: number;
  col0: number;
  rows: number;
  cols: number;
  bounds: Bounds;
  /** Image size in pixels. */
  width: number;
  height: number;
}

export function metatileOf({ level, row, col }: TileAddress, n = 4): Metatile {
  const last = matrixSize(level);
  const row0 = row - (row % n);
  const col0 = col - (col % n);
  const rows = Math.min(n, last - row0);
  const cols = Math.min(n, last - col0);
  const topLeft = tileBounds({ level, row: row0, col: col0 });
  const bottomRight = tileBounds({ level, row: row0 + rows - 1, col: col0 + cols - 1 });
  return {
    level,
    row0,
    col0,
    rows,
    cols,
    bounds: [topLeft[0], bottomRight[1], bottomRight[2], topLeft[3]],
    width: cols * TILE_SIZE,
    height: rows * TILE_SIZE,
  };
}

/** The metatiles covering a tile range, row by row. */
export function* metatilesInRange(range: TileRange, n = 4): Generator<Metatile> {
  const firstRow = range.minRow - (range.minRow % n);
  const firstCol = range.minCol - (range.minCol % n);
  for (let row = firstRow; row <= range.maxRow; row += n) {
    for (let col = firstCol; col <= range.maxCol; col += n)
      yield metatileOf({ level: range.level, row, col }, n);
  }
}

/** The tiles of a metatile that lie inside a range (edge metatiles overhang the range). */
export function* metatileTiles(meta: Metatile, range?: TileRange): Generator<TileAddress> {
  for (let row = meta.row0; row < meta.row0 + meta.rows; row++) {
    for (let col = meta.col0; col < meta.col0 + meta.cols; col++) {
      if (range && (row < range.minRow || row > range.maxRow || col < range.minCol || col > range.maxCol))
        continue;
      yield { level: meta.level, row, col };
    }
  }
}
