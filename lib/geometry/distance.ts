import { isEnvelope, isMultipoint, isPoint } from './kinds.js';
import { locatePointInRings } from './point-in-polygon.js';
import { distanceToSegmentSquared } from './segments.js';
import { someSegment, toShape } from './shapes.js';
import type { EsriGeometry } from './types.js';

/** Planar distance between two points in map units (the units of their spatial reference). */
export const pointDistance = (ax: number, ay: number, bx: number, by: number): number =>
  Math.hypot(bx - ax, by - ay);

/**
 * Planar distance in map units from a point to the nearest part of a geometry: zero inside a polygon
 * or envelope, Infinity for an empty geometry. Serves `distance` queries around a point.
 */
export function distanceToGeometry(x: number, y: number, g: EsriGeometry): number {
  if (isPoint(g)) return Number.isFinite(g.x) ? pointDistance(x, y, g.x, g.y) : Number.POSITIVE_INFINITY;
  if (isMultipoint(g)) {
    return g.points.reduce(
      (best, p) => Math.min(best, pointDistance(x, y, p[0], p[1])),
      Number.POSITIVE_INFINITY,
    );
  }
  if (isEnvelope(g)) {
    const dx = Math.max(Math.min(g.xmin, g.xmax) - x, 0, x - Math.max(g.xmin, g.xmax));
    const dy = Math.max(Math.min(g.ymin, g.ymax) - y, 0, y - Math.max(g.ymin, g.ymax));
    return Math.hypot(dx, dy);
  }
  const shape = toShape(g);
  if (!shape || shape.dim === 0) return Number.POSITIVE_INFINITY;
  if (shape.dim === 2 && locatePointInRings(x, y, shape.rings) !== 'outside') return 0;
  const parts = shape.dim === 1 ? shape.paths : shape.rings;
  let best = Number.POSITIVE_INFINITY;
  someSegment(parts, shape.dim === 2, (a, b) => {
    best = Math.min(best, distanceToSegmentSquared(x, y, a[0], a[1], b[0], b[1]));
    return best === 0;
  });
  return Math.sqrt(best);
}
