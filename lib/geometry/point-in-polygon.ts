import { orientation } from './orientation.js';
import type { SegmentIndex } from './segment-index.js';
import { pointOnSegment } from './segments.js';

export type PointLocation = 'inside' | 'outside' | 'boundary';

/**
 * Where a point lies relative to a set of rings under the even-odd rule: every ring toggles
 * inside/outside, so holes, islands in holes and overlapping parts all work without knowing which
 * ring is an outer one. Rings need not be closed; the closing edge is implied.
 */
export function locatePointInRings(
  x: number,
  y: number,
  rings: readonly (readonly number[])[][],
): PointLocation {
  let inside = false;
  for (const ring of rings) {
    const n = ring.length;
    if (n < 2) continue;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const edge = edgeEffect(x, y, ring[j], ring[i]);
      if (edge === BOUNDARY) return 'boundary';
      if (edge === CROSSES) inside = !inside;
    }
  }
  return inside ? 'inside' : 'outside';
}

/**
 * The same answer for rings held in a segment index (closed), looking only at edges near the ray
 * from the point to the right edge of the rings' bounds: those are the only ones it can cross.
 */
export function locatePointInIndexedRings(
  x: number,
  y: number,
  index: SegmentIndex,
  xmax: number,
): PointLocation {
  let inside = false;
  const onBoundary = index.someNear([x, y], [Math.max(x, xmax), y], (a, b) => {
    const edge = edgeEffect(x, y, a, b);
    if (edge === CROSSES) inside = !inside;
    return edge === BOUNDARY;
  });
  if (onBoundary) return 'boundary';
  return inside ? 'inside' : 'outside';
}

const NONE = 0;
const CROSSES = 1;
const BOUNDARY = 2;

/** What edge a→b does to a ray from (x,y) to the right: nothing, cross it, or hold the point. */
function edgeEffect(x: number, y: number, a: readonly number[], b: readonly number[]): number {
  if (pointOnSegment(x, y, a[0], a[1], b[0], b[1])) return BOUNDARY;
  // Half-open rule on y so a vertex shared by two edges is counted once.
  if (a[1] <= y) {
    if (b[1] > y && orientation(a[0], a[1], b[0], b[1], x, y) > 0) return CROSSES;
  } else if (b[1] <= y && orientation(a[0], a[1], b[0], b[1], x, y) < 0) {
    return CROSSES;
  }
  return NONE;
}

/** Signed area by the shoelace formula: positive for counter-clockwise rings (y up). */
export function ringSignedArea(ring: readonly (readonly number[])[]): number {
  let sum = 0;
  const n = ring.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  }
  return sum / 2;
}

/** Esri outer rings run clockwise: negative signed area. */
export const isClockwise = (ring: readonly (readonly number[])[]): boolean => ringSignedArea(ring) < 0;

/** A copy of the ring closed (first point repeated at the end) when it is not already. */
export function closeRing(ring: readonly number[][]): number[][] {
  const copy = ring.map((c) => c.slice());
  if (copy.length === 0) return copy;
  const first = copy[0];
  const last = copy[copy.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) copy.push(first.slice());
  return copy;
}
