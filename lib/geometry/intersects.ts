import { boundsIntersect, pointInBounds } from './bounds.js';
import { isEnvelope } from './kinds.js';
import { segmentIndexFor } from './segment-index.js';
import { pointOnSegment, segmentsIntersect } from './segments.js';
import { locateInArea, type Shape, segmentTouchesBounds, someSegment, toShape } from './shapes.js';
import type { Bounds, EsriGeometry } from './types.js';

/** Whether two geometries share at least one point (boundaries included), exactly. */
export function intersects(a: EsriGeometry, b: EsriGeometry): boolean {
  const sa = toShape(a);
  const sb = toShape(b);
  if (!sa || !sb || !boundsIntersect(sa.bounds, sb.bounds)) return false;
  if (isEnvelope(a)) return isEnvelope(b) || boxIntersectsShape(sa.bounds, sb);
  if (isEnvelope(b)) return boxIntersectsShape(sb.bounds, sa);
  return shapesIntersect(sa, sb);
}

export function shapesIntersect(a: Shape, b: Shape): boolean {
  if (a.dim > b.dim) return shapesIntersect(b, a);
  if (a.dim === 0) {
    if (b.dim === 0) return a.points.some((p) => b.points.some((q) => p[0] === q[0] && p[1] === q[1]));
    if (b.dim === 1) return a.points.some((p) => pointOnPaths(p, b.paths));
    return a.points.some((p) => locateInArea(p[0], p[1], b) !== 'outside');
  }
  if (a.dim === 1) {
    if (b.dim === 1) return segmentSetsIntersect(a.paths, false, b.paths, false, b);
    if (b.dim !== 2) return false;
    if (segmentSetsIntersect(a.paths, false, b.rings, true, b)) return true;
    return a.paths.some((p) => locateInArea(p[0][0], p[0][1], b) !== 'outside');
  }
  if (b.dim !== 2) return false;
  if (segmentSetsIntersect(a.rings, true, b.rings, true, b)) return true;
  // No boundary crossing: one is wholly inside the other, or they are apart.
  if (a.rings.some((r) => locateInArea(r[0][0], r[0][1], b) !== 'outside')) return true;
  return b.rings.some((r) => locateInArea(r[0][0], r[0][1], a) !== 'outside');
}

/** Whether a point lies on the paths of a Shape (through its segment index). */
export function pointOnPaths(p: readonly number[], paths: readonly number[][][]): boolean {
  return segmentIndexFor(paths, false).someNear(p, p, (s, e) =>
    pointOnSegment(p[0], p[1], s[0], s[1], e[0], e[1]),
  );
}

function segmentSetsIntersect(
  aParts: number[][][],
  aClosed: boolean,
  bParts: number[][][],
  bClosed: boolean,
  b: Shape,
): boolean {
  const index = segmentIndexFor(bParts, bClosed);
  return someSegment(aParts, aClosed, (p1, p2) => {
    if (!segmentTouchesBounds(p1, p2, b.bounds)) return false;
    return index.someNear(p1, p2, (q1, q2) => segmentsIntersect(p1, p2, q1, q2));
  });
}

/** Envelope queries are the common case (map extents): avoid the general pairwise tests. */
function boxIntersectsShape(bounds: Bounds, s: Shape): boolean {
  if (s.dim === 0) return s.points.some((p) => pointInBounds(bounds, p[0], p[1]));
  const frame = [
    [bounds[0], bounds[1]],
    [bounds[0], bounds[3]],
    [bounds[2], bounds[3]],
    [bounds[2], bounds[1]],
    [bounds[0], bounds[1]],
  ];
  const parts = s.dim === 1 ? s.paths : s.rings;
  const hit = someSegment(parts, s.dim === 2, (a, b) => {
    if (!segmentTouchesBounds(a, b, bounds)) return false;
    if (pointInBounds(bounds, a[0], a[1]) || pointInBounds(bounds, b[0], b[1])) return true;
    return someSegment([frame], false, (q1, q2) => segmentsIntersect(a, b, q1, q2));
  });
  if (hit) return true;
  // An envelope wholly inside a polygon touches none of its edges.
  return s.dim === 2 && locateInArea(bounds[0], bounds[1], s) !== 'outside';
}
