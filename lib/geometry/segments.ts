import { orientation } from './orientation.js';

/** Whether (px,py) lies on the closed segment a–b (exact). */
export function pointOnSegment(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): boolean {
  if (px < Math.min(ax, bx) || px > Math.max(ax, bx) || py < Math.min(ay, by) || py > Math.max(ay, by)) {
    return false;
  }
  return orientation(ax, ay, bx, by, px, py) === 0;
}

/** Whether closed segments p1–p2 and q1–q2 share at least one point (exact, collinear overlaps included). */
export function segmentsIntersect(
  p1: readonly number[],
  p2: readonly number[],
  q1: readonly number[],
  q2: readonly number[],
): boolean {
  // Cheap rejection on the boxes before any orientation test.
  if (Math.max(p1[0], p2[0]) < Math.min(q1[0], q2[0]) || Math.max(q1[0], q2[0]) < Math.min(p1[0], p2[0]))
    return false;
  if (Math.max(p1[1], p2[1]) < Math.min(q1[1], q2[1]) || Math.max(q1[1], q2[1]) < Math.min(p1[1], p2[1]))
    return false;
  const d1 = orientation(q1[0], q1[1], q2[0], q2[1], p1[0], p1[1]);
  const d2 = orientation(q1[0], q1[1], q2[0], q2[1], p2[0], p2[1]);
  const d3 = orientation(p1[0], p1[1], p2[0], p2[1], q1[0], q1[1]);
  const d4 = orientation(p1[0], p1[1], p2[0], p2[1], q2[0], q2[1]);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  if (d1 === 0 && pointOnSegment(p1[0], p1[1], q1[0], q1[1], q2[0], q2[1])) return true;
  if (d2 === 0 && pointOnSegment(p2[0], p2[1], q1[0], q1[1], q2[0], q2[1])) return true;
  if (d3 === 0 && pointOnSegment(q1[0], q1[1], p1[0], p1[1], p2[0], p2[1])) return true;
  if (d4 === 0 && pointOnSegment(q2[0], q2[1], p1[0], p1[1], p2[0], p2[1])) return true;
  return false;
}

/**
 * Parameters t in [0,1] along a→b where segment c–d touches it: one value for a crossing, two for a
 * collinear overlap. Used to split a segment into pieces that lie wholly inside or outside a shape.
 */
export function segmentSplitParameters(
  a: readonly number[],
  b: readonly number[],
  c: readonly number[],
  d: readonly number[],
): number[] {
  if (!segmentsIntersect(a, b, c, d)) return [];
  const rx = b[0] - a[0];
  const ry = b[1] - a[1];
  const sx = d[0] - c[0];
  const sy = d[1] - c[1];
  const denom = rx * sy - ry * sx;
  const lengthSq = rx * rx + ry * ry;
  if (lengthSq === 0) return [0];
  const collinear =
    orientation(a[0], a[1], b[0], b[1], c[0], c[1]) === 0 &&
    orientation(a[0], a[1], b[0], b[1], d[0], d[1]) === 0;
  if (collinear || denom === 0) {
    const tc = ((c[0] - a[0]) * rx + (c[1] - a[1]) * ry) / lengthSq;
    const td = ((d[0] - a[0]) * rx + (d[1] - a[1]) * ry) / lengthSq;
    return [clamp01(tc), clamp01(td)];
  }
  const t = ((c[0] - a[0]) * sy - (c[1] - a[1]) * sx) / denom;
  return [clamp01(t)];
}

const clamp01 = (t: number): number => Math.min(1, Math.max(0, t));

/** Squared distance from (px,py) to the segment a–b. */
export function distanceToSegmentSquared(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSq = dx * dx + dy * dy;
  let t = lengthSq === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / lengthSq;
  t = clamp01(t);
  const cx = ax + t * dx - px;
  const cy = ay + t * dy - py;
  return cx * cx + cy * cy;
}
