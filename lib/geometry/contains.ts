import { boundsContain } from './bounds.js';
import { pointOnPaths } from './intersects.js';
import { isEnvelope } from './kinds.js';
import { everySegmentCovered, isLineBoundary, pieceLocations } from './pieces.js';
import { groupRings, interiorPoint } from './rings.js';
import { locateInArea, type Shape, toShape } from './shapes.js';
import type { EsriGeometry } from './types.js';

/**
 * Whether `a` contains `b` in the OGC sense: no point of b lies outside a, and the interiors meet
 * (so a line lying only on a polygon's edge is not contained by it).
 */
export function contains(a: EsriGeometry, b: EsriGeometry): boolean {
  const sa = toShape(a);
  const sb = toShape(b);
  if (!sa || !sb || !boundsContain(sa.bounds, sb.bounds)) return false;
  if (isEnvelope(a) && strictlyInsideBox(sa.bounds, sb.bounds)) return true;
  return shapeContains(sa, sb);
}

/** Whether `a` lies within `b`: the converse of contains. */
export const within = (a: EsriGeometry, b: EsriGeometry): boolean => contains(b, a);

const strictlyInsideBox = (outer: Shape['bounds'], inner: Shape['bounds']): boolean =>
  inner[0] > outer[0] && inner[1] > outer[1] && inner[2] < outer[2] && inner[3] < outer[3];

export function shapeContains(a: Shape, b: Shape): boolean {
  if (b.dim > a.dim) return false;
  if (a.dim === 0 && b.dim === 0) {
    return b.points.every((q) => a.points.some((p) => p[0] === q[0] && p[1] === q[1]));
  }
  if (a.dim === 1) {
    if (b.dim === 0) {
      return (
        b.points.every((q) => pointOnPaths(q, a.paths)) && b.points.some((q) => !isLineBoundary(q, a.paths))
      );
    }
    return b.dim === 1 && everySegmentCovered(b.paths, a.paths);
  }
  if (a.dim !== 2) return false;
  if (b.dim === 0) {
    const where = b.points.map((q) => locateInArea(q[0], q[1], a));
    return !where.includes('outside') && where.includes('inside');
  }
  const bParts = b.dim === 1 ? b.paths : b.rings;
  const pieces = pieceLocations(bParts, b.dim === 2, a);
  if (pieces.includes('outside')) return false;
  if (b.dim === 1) return pieces.includes('inside');
  // a's boundary must not enter b's interior, and every part of b must sit in a, not in a hole of a.
  if (pieceLocations(a.rings, true, b).includes('inside')) return false;
  return groupRings(b.rings).every((group) => {
    const p = interiorPoint(group);
    return p !== null && locateInArea(p[0], p[1], a) !== 'outside';
  });
}
