/**
 * The tile budget of a cache build: a level range over an extent may hold at most `maxTiles` tiles,
 * checked before any work starts, so a request for level 0–23 over the world (some 10^14 tiles) is
 * refused at once with the budget named instead of occupying workers for years.
 */

import { badRequest } from '../errors.js';
import type { Bounds } from '../geometry/types.js';
import { countTiles } from './web-mercator.js';

export const DEFAULT_TILE_BUDGET = 5_000_000;

/** Throws when levels minLevel..maxLevel over `extent` (Web Mercator) hold more than `maxTiles` tiles. */
export function checkTileBudget(
  extent: Bounds | null | undefined,
  minLevel: number,
  maxLevel: number,
  maxTiles: number,
): void {
  if (!extent || maxLevel < minLevel) return;
  const tiles = countTiles(extent, minLevel, maxLevel);
  if (tiles > maxTiles)
    throw badRequest('Unable to build the tile cache.', [
      `Levels ${minLevel}–${maxLevel} over the data's extent make ${tiles.toExponential(2).replace('e+', ' × 10^')} tiles, more than the tile budget of ${maxTiles} (TILE_BUILD_MAX_TILES). Choose fewer or shallower levels.`,
    ]);
}
