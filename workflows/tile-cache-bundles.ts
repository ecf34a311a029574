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

/**
 * A bundle group's bound: consecutive bundles (in the build's order) go to one activity while their
 * tiles add up to at most this many; a bundle with more goes alone. The low levels of a city-sized
 * cache are one bundle of a few tiles each, where an activity of its own cost more than drawing it: a
 * read of every feature, a handful of statements, a workflow task and the server's bookkeeping (on the
 * tile bench, 11 such bundles of 17 tiles in all took as long as the 540 tiles of the deepest level).
 */
export const GROUP_TILES = 64;
/** The most bundles in one group, however few their tiles. */
export const GROUP_BUNDLES = 16;

/** How many tiles of the bundle at (row0, col0) lie in the level's range. */
function tilesOf(
  r: { minRow: number; maxRow: number; minCol: number; maxCol: number },
  row0: number,
  col0: number,
): number {
  const rows = Math.min(r.maxRow, row0 + BUNDLE_DIM - 1) - Math.max(r.minRow, row0) + 1;
  const cols = Math.min(r.maxCol, col0 + BUNDLE_DIM - 1) - Math.max(r.minCol, col0) + 1;
  return rows > 0 && cols > 0 ? rows * cols : 0;
}

/**
 * The bundles from number `start` on, in the build's order, in groups of consecutive bundles whose
 * tiles (within the extent grown by the reach) add up to at most `groupTiles`, at most GROUP_BUNDLES
 * each; a larger bundle is a group of its own. Every bundle is in exactly one group, in order, so the
 * groups from any start are the bundles from that start.
 */
export function* cacheBundleGroupsFrom(
  extent: Bounds | null,
  minLevel: number,
  maxLevel: number,
  reachPx = 0,
  start = 0,
  order: BundleOrder = {},
  groupTiles = GROUP_TILES,
): Generator<BundleRef[]> {
  let group: BundleRef[] = [];
  let tiles = 0;
  const ranges = new Map<number, ReturnType<typeof tileRange>>();
  for (const b of cacheBundlesFrom(extent, minLevel, maxLevel, reachPx, start, order)) {
    let r = ranges.get(b.level);
    if (!r) {
      r = tileRange(queryBounds(extent as Bounds, reachPx, lodOf(b.level).resolution), b.level);
      ranges.set(b.level, r);
    }
    const n = tilesOf(r, b.row0, b.col0);
    if (group.length > 0 && (tiles + n > groupTiles || group.length >= GROUP_BUNDLES)) {
      yield group;
      group = [];
      tiles = 0;
    }
    group.push(b);
    tiles += n;
  }
  if (group.length > 0) yield group;
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
