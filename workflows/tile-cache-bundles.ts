/**
 * The bundles a cache build visits, level by level, in a fixed order: the workflow walks this list by
 * index, so a continued-as-new run can pick up at a number. Pure: the workflow bundle imports it.
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

/** Bundle origins covering the extent (grown by the symbol reach) at each level, lowest level first. */
export function cacheBundles(
  extent: Bounds | null,
  minLevel: number,
  maxLevel: number,
  reachPx = 0,
): BundleRef[] {
  if (!extent) return [];
  const out: BundleRef[] = [];
  for (let level = minLevel; level <= maxLevel; level++) {
    const r = tileRange(queryBounds(extent, reachPx, lodOf(level).resolution), level);
    const firstRow = r.minRow - (r.minRow % BUNDLE_DIM);
    const firstCol = r.minCol - (r.minCol % BUNDLE_DIM);
    for (let row0 = firstRow; row0 <= r.maxRow; row0 += BUNDLE_DIM)
      for (let col0 = firstCol; col0 <= r.maxCol; col0 += BUNDLE_DIM) out.push({ level, row0, col0 });
  }
  return out;
}
