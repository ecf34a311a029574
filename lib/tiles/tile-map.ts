/**
 * Tile maps (`tilemap/{level}/{row}/{col}/{width}/{height}`, ArcGIS 10.6.1+): which tiles of an area of one
 * level exist, so a client asks only for those. The answer names the area it describes (`location`) and
 * one 1 or 0 per tile, row by row from the top left. A client such as the ArcGIS Maps SDK for JavaScript
 * asks for bundle-aligned blocks and refuses an answer for another area, so the area asked for is answered
 * as it is whenever it lies inside the level and within MAX_TILE_MAP_SIDE; only then is it cut down, and
 * `adjusted` says so.
 */
import { BUNDLE_DIM, bundleOrigin, tileIndexInBundle } from './compact-bundle.js';

/** The longest side of an area one answer describes (a 256 × 256 area touches at most nine bundles). */
export const MAX_TILE_MAP_SIDE = 256;

export interface TileMapLocation {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface TileMap {
  adjusted: boolean;
  location: TileMapLocation;
  data: number[];
}

/**
 * The area a tile map request describes, or a reason it names none: the path's numbers as sent.
 * `size` is the number of tiles per row and column at the level (2^level in Web Mercator).
 */
export function tileMapArea(
  parts: { row: string; col: string; width: string; height: string },
  size: number,
): { location: TileMapLocation; adjusted: boolean } | { problem: string } {
  const [top, left, width, height] = [parts.row, parts.col, parts.width, parts.height].map((s) =>
    /^\d{1,9}$/.test(s) ? Number(s) : Number.NaN,
  );
  if (!Number.isInteger(top) || top >= size) return { problem: `Invalid row: ${parts.row}.` };
  if (!Number.isInteger(left) || left >= size) return { problem: `Invalid column: ${parts.col}.` };
  if (!Number.isInteger(width) || width < 1) return { problem: `Invalid width: ${parts.width}.` };
  if (!Number.isInteger(height) || height < 1) return { problem: `Invalid height: ${parts.height}.` };
  const w = Math.min(width, MAX_TILE_MAP_SIDE, size - left);
  const h = Math.min(height, MAX_TILE_MAP_SIDE, size - top);
  return { location: { left, top, width: w, height: h }, adjusted: w !== width || h !== height };
}

/** The bundles (their top-left tiles) an area touches. */
export function bundlesOfArea(location: TileMapLocation): { row0: number; col0: number }[] {
  const first = bundleOrigin(location.top, location.left);
  const out: { row0: number; col0: number }[] = [];
  for (let row0 = first.row0; row0 < location.top + location.height; row0 += BUNDLE_DIM)
    for (let col0 = first.col0; col0 < location.left + location.width; col0 += BUNDLE_DIM)
      out.push({ row0, col0 });
  return out;
}

/** A bundle an area touches, with its tile sizes by slot (its index); undefined when it does not exist. */
export interface BundleSizes {
  row0: number;
  col0: number;
  sizes: ArrayLike<number> | undefined;
}

/** One 1 or 0 per tile of the area, row by row, from the bundles it touches (bundlesOfArea). */
export function tileMapData(location: TileMapLocation, bundles: readonly BundleSizes[]): number[] {
  const data = new Array<number>(location.width * location.height).fill(0);
  for (const { row0, col0, sizes } of bundles) {
    if (!sizes) continue;
    const rowEnd = Math.min(row0 + BUNDLE_DIM, location.top + location.height);
    const colEnd = Math.min(col0 + BUNDLE_DIM, location.left + location.width);
    for (let row = Math.max(row0, location.top); row < rowEnd; row++)
      for (let col = Math.max(col0, location.left); col < colEnd; col++)
        if (sizes[tileIndexInBundle(row, col)] > 0)
          data[(row - location.top) * location.width + (col - location.left)] = 1;
  }
  return data;
}
