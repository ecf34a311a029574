/**
 * The bundles a cache build visits, level by level, in a fixed order: the workflow walks them by index,
 * so a continued-as-new run can pick up at a number. They are counted by arithmetic and produced one at
 * a time from any index, never held as a list. Pure: the workflow bundle imports it.
 */
import type { Bounds } from '../lib/geometry/types.js';
import { queryBounds } from '../lib/render/symbol-reach.js';
import { BUNDLE_DIM } from '../lib/tiles/compact-bundle.js';
import { lodOf, tileRange } from '../lib/tiles/web-mercator.js';

export interface BundleRef {
  level: number;
  row0: number;
  col0: number;
}

/** The bundle grid of one level: first origins and how many bundles across and down. */
function levelGrid(extent: Bounds, level: number, reachPx: number) {
  const r = tileRange(queryBounds(extent, reachPx, lodOf(level).resolution), level);
  const firstRow = r.minRow - (r.minRow % BUNDLE_DIM);
  const firstCol = r.minCol - (r.minCol % BUNDLE_DIM);
  const rows = Math.floor((r.maxRow - firstRow) / BUNDLE_DIM) + 1;
  const cols = Math.floor((r.maxCol - firstCol) / BUNDLE_DIM) + 1;
  return { firstRow, firstCol, rows, cols };
}

/** How many bundles a build of these levels visits. */
export function countCacheBundles(
  extent: Bounds | null,
  minLevel: number,
  maxLevel: number,
  reachPx = 0,
): number {
  if (!extent) return 0;
  let n = 0;
  for (let level = minLevel; level <= maxLevel; level++) {
    const g = levelGrid(extent, level, reachPx);
    n += g.rows * g.cols;
  }
  return n;
}

/** The bundles from number `start` on, in the build's order, one at a time. */
export function* cacheBundlesFrom(
  extent: Bounds | null,
  minLevel: number,
  maxLevel: number,
  reachPx = 0,
  start = 0,
): Generator<BundleRef> {
  if (!extent) return;
  let skip = start;
  for (let level = minLevel; level <= maxLevel; level++) {
    const g = levelGrid(extent, level, reachPx);
    const total = g.rows * g.cols;
    if (skip >= total) {
      skip -= total;
      continue;
    }
    for (let i = skip; i < total; i++) {
      const row0 = g.firstRow + Math.floor(i / g.cols) * BUNDLE_DIM;
      const col0 = g.firstCol + (i % g.cols) * BUNDLE_DIM;
      yield { level, row0, col0 };
    }
    skip = 0;
  }
}

/** Bundle origins covering the extent (grown by the symbol reach) at each level, lowest level first. */
export function cacheBundles(
  extent: Bounds | null,
  minLevel: number,
  maxLevel: number,
  reachPx = 0,
): BundleRef[] {
  return [...cacheBundlesFrom(extent, minLevel, maxLevel, reachPx)];
}
