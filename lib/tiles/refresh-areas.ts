/**
 * Which tiles an edit touches: at every cached level, the tiles whose extent grown by the symbols'
 * reach meets an edited area, grouped by bundle. Several areas falling into one bundle stay separate
 * ranges (two edits far apart in a bundle do not redraw everything between them); overlapping ranges
 * are merged. Pure: the refresh workflow plans with it.
 */
import type { Bounds } from '../geometry/types.js';
import { queryBounds } from '../render/symbol-reach.js';
import { BUNDLE_DIM } from './compact-bundle.js';
import { lodOf, type TileRange, tileRange } from './web-mercator.js';

export interface BundleRefresh {
  level: number;
  row0: number;
  col0: number;
  /** Tile ranges inside this bundle to draw again. */
  ranges: TileRange[];
}

const overlaps = (a: TileRange, b: TileRange): boolean =>
  a.minRow <= b.maxRow + 1 &&
  b.minRow <= a.maxRow + 1 &&
  a.minCol <= b.maxCol + 1 &&
  b.minCol <= a.maxCol + 1;

function mergeInto(ranges: TileRange[], r: TileRange): void {
  let merged = r;
  for (let i = ranges.length - 1; i >= 0; i--) {
    const o = ranges[i];
    if (!overlaps(o, merged)) continue;
    merged = {
      level: merged.level,
      minRow: Math.min(o.minRow, merged.minRow),
      maxRow: Math.max(o.maxRow, merged.maxRow),
      minCol: Math.min(o.minCol, merged.minCol),
      maxCol: Math.max(o.maxCol, merged.maxCol),
    };
    ranges.splice(i, 1);
  }
  ranges.push(merged);
}

/** The bundles (lowest level first) and tile ranges that the edited `areas` (Web Mercator) touch. */
export function refreshPlan(
  areas: readonly Bounds[],
  minLevel: number,
  maxLevel: number,
  reachPx: number,
): BundleRefresh[] {
  const byBundle = new Map<string, BundleRefresh>();
  for (let level = minLevel; level <= maxLevel; level++) {
    const resolution = lodOf(level).resolution;
    for (const area of areas) {
      const r = tileRange(queryBounds(area, reachPx, resolution), level);
      for (let row0 = r.minRow - (r.minRow % BUNDLE_DIM); row0 <= r.maxRow; row0 += BUNDLE_DIM) {
        for (let col0 = r.minCol - (r.minCol % BUNDLE_DIM); col0 <= r.maxCol; col0 += BUNDLE_DIM) {
          const part: TileRange = {
            level,
            minRow: Math.max(r.minRow, row0),
            maxRow: Math.min(r.maxRow, row0 + BUNDLE_DIM - 1),
            minCol: Math.max(r.minCol, col0),
            maxCol: Math.min(r.maxCol, col0 + BUNDLE_DIM - 1),
          };
          const key = `${level}/${row0}/${col0}`;
          let entry = byBundle.get(key);
          if (!entry) {
            entry = { level, row0, col0, ranges: [] };
            byBundle.set(key, entry);
          }
          mergeInto(entry.ranges, part);
        }
      }
    }
  }
  return [...byBundle.values()];
}
