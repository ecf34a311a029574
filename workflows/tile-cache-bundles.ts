/**
 * The bundles a cache build visits, level by level, in a fixed order: the workflow walks them by index,
 * so a continued-as-new run can pick up at a number. Builds visit the deepest level first: its bundles
 * hold most of the tiles, and started last (as the lowest-level-first order had them) the one big bundle
 * of a city-sized cache ran alone at the end while the small ones had kept the worker busy before it. They are counted by arithmetic and produced one at
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

/** The order levels are visited in: `deepestFirst` from maxLevel down (new builds), else upwards. */
export interface BundleOrder {
  deepestFirst?: boolean;
}

/** The bundles from number `start` on, in the build's order, one at a time. */
export function* cacheBundlesFrom(
  extent: Bounds | null,
  minLevel: number,
  maxLevel: number,
  reachPx = 0,
  start = 0,
  order: BundleOrder = {},
): Generator<BundleRef> {
  if (!extent) return;
  let skip = start;
  const levels = maxLevel - minLevel + 1;
  for (let k = 0; k < levels; k++) {
    const level = order.deepestFirst ? maxLevel - k : minLevel + k;
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

/** Bundle origins covering the extent (grown by the symbol reach) at each level, in the given order. */
export function cacheBundles(
  extent: Bounds | null,
  minLevel: number,
  maxLevel: number,
  reachPx = 0,
  order: BundleOrder = {},
): BundleRef[] {
  return [...cacheBundlesFrom(extent, minLevel, maxLevel, reachPx, 0, order)];
}
