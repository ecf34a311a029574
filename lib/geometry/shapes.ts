import { geometryBounds } from './bounds.js';
import { envelopeToPolygon, isEnvelope, isMultipoint, isPoint, isPolygon, isPolyline } from './kinds.js';
import { locatePointInIndexedRings, type PointLocation } from './point-in-polygon.js';
import { segmentIndexFor } from './segment-index.js';
import type { Bounds, EsriGeometry } from './types.js';

/**
 * A geometry reduced to its dimension, which is what the predicates reason about:
 * points (dimension 0), lines (1) or an area under the even-odd rule (2).
 */
export type Shape =
  | { dim: 0; points: number[][]; bounds: Bounds }
  | { dim: 1; paths: number[][][]; bounds: Bounds }
  | { dim: 2; rings: number[][][]; bounds: Bounds };

/** The shape of a geometry, or null when it is empty. */
export function toShape(g: EsriGeometry): Shape | null {
  const bounds = geometryBounds(g);
  if (!bounds) return null;
  if (isPoint(g)) return { dim: 0, points: [[g.x, g.y]], bounds };
  if (isMultipoint(g)) return { dim: 0, points: g.points, bounds };
  if (isPolyline(g)) return { dim: 1, paths: nonEmpty(g.paths), bounds };
  if (isPolygon(g)) return { dim: 2, rings: nonEmpty(g.rings), bounds };
  if (isEnvelope(g)) return { dim: 2, rings: envelopeToPolygon(g).rings, bounds };
  return null;
}

/**
 * The parts without empty ones, always in a new array: segment indexes are cached per part array,
 * and a fresh one per predicate call means an index never outlives an edit of the caller's geometry.
 */
const nonEmpty = (parts: number[][][]): number[][][] => parts.filter((p) => p.length > 0);

/** Calls fn for every segment of the paths (or rings, closing each), stopping when fn returns true. */
export function someSegment(
  parts: readonly number[][][],
  closed: boolean,
  fn: (a: number[], b: number[]) => boolean,
): boolean {
  for (const part of parts) {
    const n = part.length;
    if (n === 1) {
      if (fn(part[0], part[0])) return true;
      continue;
    }
    for (let i = 1; i < n; i++) if (fn(part[i - 1], part[i])) return true;
    if (closed && n > 2) {
      const first = part[0];
      const last = part[n - 1];
      if ((first[0] !== last[0] || first[1] !== last[1]) && fn(last, first)) return true;
    }
  }
  return false;
}

/** Whether the box of segment a–b overlaps the given bounds: a cheap filter before exact tests. */
export const segmentTouchesBounds = (a: number[], b: number[], bounds: Bounds): boolean =>
  Math.max(a[0], b[0]) >= bounds[0] &&
  Math.min(a[0], b[0]) <= bounds[2] &&
  Math.max(a[1], b[1]) >= bounds[1] &&
  Math.min(a[1], b[1]) <= bounds[3];

/** Where a point lies in an area shape, through the shape's segment index. */
export function locateInArea(x: number, y: number, area: Shape & { dim: 2 }): PointLocation {
  const [x0, y0, x1, y1] = area.bounds;
  if (x < x0 || x > x1 || y < y0 || y > y1) return 'outside';
  return locatePointInIndexedRings(x, y, segmentIndexFor(area.rings, true), x1);
}
