import type { Bounds } from '../geometry/types.js';
import { countTiles, lodOf, MAX_LEVEL, rangeTileCount, TILE_SIZE, tileRange } from './web-mercator.js';

export interface LevelRange {
  minLevel: number;
  maxLevel: number;
}

export interface LevelRangeOptions {
  /** The first level is the deepest one where the extent still fits this many tiles (default 4). */
  startTiles?: number;
  /** Features count as separated when their average spacing is this many pixels (default 16). */
  separationPx?: number;
  /** Deepest level ever proposed (default 18). */
  maxLevelCap?: number;
  /** Levels are dropped from the bottom until the whole range holds at most this many tiles. */
  maxTiles?: number;
  /** Deepest level for a dataset of one point or a zero-area extent (default 16). */
  pointMaxLevel?: number;
}

/**
 * A sensible default cache level range for a dataset in EPSG:3857: start where the extent fits a few
 * tiles, stop where the average feature spacing reaches `separationPx` pixels, capped by depth and by
 * a tile budget. Average spacing is sqrt(area / count): clustered data separates later, which the cap
 * and budget bound.
 */
export function defaultLevelRange(
  extent: Bounds,
  featureCount: number,
  options: LevelRangeOptions = {},
): LevelRange {
  const startTiles = options.startTiles ?? 4;
  const separationPx = options.separationPx ?? 16;
  const cap = Math.min(options.maxLevelCap ?? 18, MAX_LEVEL);
  const maxTiles = options.maxTiles ?? 1_000_000;
  const pointMax = Math.min(options.pointMaxLevel ?? 16, cap);

  const width = extent[2] - extent[0];
  const height = extent[3] - extent[1];
  // A zero-area extent sits in one tile at every level, so every level is cheap: start at 0.
  const fitCap = width > 0 || height > 0 ? cap : 0;
  let minLevel = 0;
  for (let level = 0; level <= fitCap; level++) {
    if (rangeTileCount(tileRange(extent, level)) > startTiles) break;
    minLevel = level;
  }

  let maxLevel = pointMax;
  if (featureCount > 1 && width > 0 && height > 0) {
    const spacing = Math.sqrt((width * height) / featureCount);
    maxLevel = cap;
    for (let level = minLevel; level <= cap; level++) {
      if (spacing / lodOf(level).resolution >= separationPx) {
        maxLevel = level;
        break;
      }
    }
  } else if (width > 0 || height > 0) {
    // A line-like extent or a single feature with size: stop where it spans a few hundred pixels.
    const size = Math.max(width, height);
    maxLevel = cap;
    for (let level = minLevel; level <= cap; level++) {
      if (size / lodOf(level).resolution >= TILE_SIZE * 2) {
        maxLevel = level;
        break;
      }
    }
  }
  maxLevel = Math.max(minLevel, Math.min(maxLevel, cap));
  while (maxLevel > minLevel && countTiles(extent, minLevel, maxLevel) > maxTiles) maxLevel--;
  return { minLevel, maxLevel };
}
