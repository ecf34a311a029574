import { boundsContain } from './bounds.js';
import { pointOnPaths } from './intersects.js';
import { isEnvelope } from './kinds.js';
import { groupRings, interiorPoint } from './rings.js';
import { segmentIndexFor } from './segment-index.js';
import { segmentSplitParameters } from './segments.js';
import { locateInArea, type Shape, segmentTouchesBounds, someSegment, toShape } from './shapes.js';
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
        b.points.every((q) => pointOnPaths(q, a.paths)) && b.points.some((q) => !isPathEndpoint(q, a.paths))
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

/** Where segment p–q is cut by the segments of `parts`, and which intervals of it run along them. */
function cutSegment(p: number[], q: number[], parts: number[][][], closed: boolean) {
  const cuts = [0, 1];
  const along: [number, number][] = [];
  segmentIndexFor(parts, closed).someNear(p, q, (c, d) => {
    const ts = segmentSplitParameters(p, q, c, d);
    cuts.push(...ts);
    if (ts.length === 2) along.push([Math.min(ts[0], ts[1]), Math.max(ts[0], ts[1])]);
    return false;
  });
  cuts.sort((x, y) => x - y);
  const pieces: { lo: number; hi: number; onParts: boolean }[] = [];
  for (let i = 1; i < cuts.length; i++) {
    if (cuts[i] === cuts[i - 1]) continue;
    const lo = cuts[i - 1];
    const hi = cuts[i];
    pieces.push({ lo, hi, onParts: along.some(([a, b]) => a <= lo && hi <= b) });
  }
  return pieces;
}

/**
 * Splits every segment of `parts` where it meets the boundary of `area` and locates each piece: it
 * lies wholly inside, outside or along that boundary. Pieces along an edge are told apart exactly,
 * not from a rounded midpoint.
 */
function pieceLocations(parts: number[][][], closed: boolean, area: Shape): string[] {
  if (area.dim !== 2) return [];
  const out: string[] = [];
  someSegment(parts, closed, (p, q) => {
    // A segment whose box misses the area's box lies wholly outside it: no cutting, no ray.
    if (!segmentTouchesBounds(p, q, area.bounds)) {
      out.push('outside');
      return false;
    }
    for (const piece of cutSegment(p, q, area.rings, true)) {
      if (piece.onParts) {
        out.push('boundary');
        continue;
      }
      const t = (piece.lo + piece.hi) / 2;
      out.push(locateInArea(p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), area));
    }
    return false;
  });
  return out;
}

/** Endpoints of open paths are a line's boundary, so a point there is not contained by the line. */
function isPathEndpoint(q: readonly number[], paths: number[][][]): boolean {
  return paths.some((path) => {
    const first = path[0];
    const last = path[path.length - 1];
    if (first[0] === last[0] && first[1] === last[1]) return false;
    return (q[0] === first[0] && q[1] === first[1]) || (q[0] === last[0] && q[1] === last[1]);
  });
}

/** Whether every segment of `lines` lies along `cover`, possibly across several of its segments. */
function everySegmentCovered(lines: number[][][], cover: number[][][]): boolean {
  return !someSegment(lines, false, (p, q) => {
    if (p[0] === q[0] && p[1] === q[1]) return !pointOnPaths(p, cover);
    return cutSegment(p, q, cover, false).some((piece) => !piece.onParts);
  });
}
