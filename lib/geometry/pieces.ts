import { pointOnPaths } from './intersects.js';
import type { PointLocation } from './point-in-polygon.js';
import { segmentIndexFor } from './segment-index.js';
import { segmentSplitParameters } from './segments.js';
import { locateInArea, type Shape, segmentTouchesBounds, someSegment } from './shapes.js';

/**
 * Pieces of segments: a segment cut wherever another geometry's segments meet it, so that each
 * piece lies wholly inside, outside or along that geometry. The relational predicates reason on these.
 */

/** Where segment p–q is cut by the segments of `parts`, and which intervals of it run along them. */
export function cutSegment(p: number[], q: number[], parts: number[][][], closed: boolean) {
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
export function pieceLocations(parts: number[][][], closed: boolean, area: Shape): PointLocation[] {
  if (area.dim !== 2) return [];
  const out: PointLocation[] = [];
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

/**
 * Whether a point is on the boundary of a polyline: an endpoint of an odd number of its open paths
 * (the OGC mod-2 rule, so where two paths meet end to end the line simply goes on).
 */
export function isLineBoundary(q: readonly number[], paths: readonly number[][][]): boolean {
  let ends = 0;
  for (const path of paths) {
    const first = path[0];
    const last = path[path.length - 1];
    if (first[0] === last[0] && first[1] === last[1]) continue;
    if (q[0] === first[0] && q[1] === first[1]) ends++;
    if (q[0] === last[0] && q[1] === last[1]) ends++;
  }
  return ends % 2 === 1;
}

/** Whether every segment of `lines` lies along `cover`, possibly across several of its segments. */
export function everySegmentCovered(lines: number[][][], cover: number[][][]): boolean {
  return !someSegment(lines, false, (p, q) => {
    if (p[0] === q[0] && p[1] === q[1]) return !pointOnPaths(p, cover);
    return cutSegment(p, q, cover, false).some((piece) => !piece.onParts);
  });
}
