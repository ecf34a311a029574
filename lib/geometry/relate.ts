import { boundsIntersect } from './bounds.js';
import { shapeContains } from './contains.js';
import { pointOnPaths, shapesIntersect } from './intersects.js';
import { orientation } from './orientation.js';
import { everySegmentCovered, isLineBoundary, pieceLocations } from './pieces.js';
import { groupRings, interiorPoint } from './rings.js';
import { segmentIndexFor } from './segment-index.js';
import { pointOnSegment, segmentSplitParameters, segmentsIntersect } from './segments.js';
import { locateInArea, type Shape, someSegment, toShape } from './shapes.js';
import type { EsriGeometry } from './types.js';

/**
 * The OGC relations beyond intersects and contains, read from the interiors and boundaries of the
 * two geometries: a line's boundary is its open ends, an area's boundary its rings, points have none.
 */

/** The geometries meet, but only on boundaries: their interiors stay apart. */
export function touches(a: EsriGeometry, b: EsriGeometry): boolean {
  const pair = shapes(a, b);
  if (!pair) return false;
  const [x, y] = pair;
  if (x.dim === 0 && y.dim === 0) return false; // points have no boundary to touch on
  return shapesIntersect(x, y) && !interiorsIntersect(x, y);
}

/**
 * The geometries cross: a point set or line passes from the inside of the other to its outside,
 * or two lines meet at points inside both without running along each other.
 */
export function crosses(a: EsriGeometry, b: EsriGeometry): boolean {
  const pair = shapes(a, b);
  if (!pair) return false;
  const [x, y] = pair;
  if (x.dim === 0 && y.dim === 1) {
    return (
      x.points.some((p) => onLineInterior(p, y.paths)) && x.points.some((p) => !pointOnPaths(p, y.paths))
    );
  }
  if (x.dim === 0 && y.dim === 2) {
    const where = x.points.map((p) => locateInArea(p[0], p[1], y));
    return where.includes('inside') && where.includes('outside');
  }
  if (x.dim === 1 && y.dim === 2) {
    const pieces = pieceLocations(x.paths, false, y);
    return pieces.includes('inside') && pieces.includes('outside');
  }
  if (x.dim === 1 && y.dim === 1) {
    const meet = linesMeet(x.paths, y.paths);
    return meet.atInteriorPoint && !meet.alongEachOther;
  }
  return false;
}

/** Geometries of one dimension share part of their interiors, and each has a part the other lacks. */
export function overlaps(a: EsriGeometry, b: EsriGeometry): boolean {
  const pair = shapes(a, b);
  if (!pair) return false;
  const [x, y] = pair;
  if (x.dim !== y.dim) return false;
  if (x.dim === 0 && y.dim === 0) {
    const shared = (p: number[], set: number[][]) => set.some((q) => q[0] === p[0] && q[1] === p[1]);
    return (
      x.points.some((p) => shared(p, y.points)) &&
      x.points.some((p) => !shared(p, y.points)) &&
      y.points.some((p) => !shared(p, x.points))
    );
  }
  if (x.dim === 1 && y.dim === 1) {
    return (
      linesMeet(x.paths, y.paths).alongEachOther &&
      !everySegmentCovered(x.paths, y.paths) &&
      !everySegmentCovered(y.paths, x.paths)
    );
  }
  return interiorsIntersect(x, y) && !shapeContains(x, y) && !shapeContains(y, x);
}

/** Both shapes, the lower dimension first; null when empty or their boxes do not meet. */
function shapes(a: EsriGeometry, b: EsriGeometry): [Shape, Shape] | null {
  const sa = toShape(a);
  const sb = toShape(b);
  if (!sa || !sb || !boundsIntersect(sa.bounds, sb.bounds)) return null;
  return sa.dim <= sb.dim ? [sa, sb] : [sb, sa];
}

const onLineInterior = (p: number[], paths: number[][][]): boolean =>
  pointOnPaths(p, paths) && !isLineBoundary(p, paths);

/** Whether the interiors of two shapes (lower dimension first) share a point. */
export function interiorsIntersect(x: Shape, y: Shape): boolean {
  if (x.dim === 0) {
    if (y.dim === 0) return x.points.some((p) => y.points.some((q) => p[0] === q[0] && p[1] === q[1]));
    if (y.dim === 1) return x.points.some((p) => onLineInterior(p, y.paths));
    return x.points.some((p) => locateInArea(p[0], p[1], y) === 'inside');
  }
  if (x.dim === 1) {
    if (y.dim === 1) {
      const meet = linesMeet(x.paths, y.paths);
      return meet.atInteriorPoint || meet.alongEachOther;
    }
    return y.dim === 2 && pieceLocations(x.paths, false, y).includes('inside');
  }
  if (y.dim !== 2) return false;
  if (pieceLocations(x.rings, true, y).includes('inside')) return true;
  if (pieceLocations(y.rings, true, x).includes('inside')) return true;
  // Neither boundary enters the other's interior: each part's interior is wholly in or out.
  const partInside = (from: Shape & { dim: 2 }, to: Shape & { dim: 2 }) =>
    groupRings(from.rings).some((group) => {
      const p = interiorPoint(group);
      return p !== null && locateInArea(p[0], p[1], to) === 'inside';
    });
  return partInside(x, y) || partInside(y, x);
}

/**
 * How two polylines meet: at a point inside both (not an open end of either), and/or along a
 * stretch of positive length.
 */
function linesMeet(a: number[][][], b: number[][][]) {
  let atInteriorPoint = false;
  let alongEachOther = false;
  const index = segmentIndexFor(b, false);
  someSegment(a, false, (p1, p2) =>
    index.someNear(p1, p2, (q1, q2) => {
      if (!segmentsIntersect(p1, p2, q1, q2)) return false;
      const ts = segmentSplitParameters(p1, p2, q1, q2);
      if (ts.length === 2 && ts[0] !== ts[1]) alongEachOther = true;
      else if (properCrossing(p1, p2, q1, q2)) atInteriorPoint = true;
      else {
        // They touch at an end of one of the two segments; that vertex may still be inside both lines.
        for (const v of [p1, p2, q1, q2]) {
          const onBoth =
            pointOnSegment(v[0], v[1], p1[0], p1[1], p2[0], p2[1]) &&
            pointOnSegment(v[0], v[1], q1[0], q1[1], q2[0], q2[1]);
          if (onBoth && !isLineBoundary(v, a) && !isLineBoundary(v, b)) atInteriorPoint = true;
        }
      }
      return atInteriorPoint && alongEachOther;
    }),
  );
  return { atInteriorPoint, alongEachOther };
}

function properCrossing(p1: number[], p2: number[], q1: number[], q2: number[]): boolean {
  const d1 = orientation(q1[0], q1[1], q2[0], q2[1], p1[0], p1[1]);
  const d2 = orientation(q1[0], q1[1], q2[0], q2[1], p2[0], p2[1]);
  const d3 = orientation(p1[0], p1[1], p2[0], p2[1], q1[0], q1[1]);
  const d4 = orientation(p1[0], p1[1], p2[0], p2[1], q2[0], q2[1]);
  return d1 * d2 < 0 && d3 * d4 < 0;
}
