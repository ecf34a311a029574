import { isEnvelope, isMultipoint, isPoint } from './kinds.js';
import { distanceToSegmentSquared } from './segments.js';
import { locateInArea, someSegment, toShape } from './shapes.js';
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
  const shape = toShape(g);
  if (!shape || shape.dim === 0) return Number.POSITIVE_INFINITY;
  if (isEnvelope(g)) {
    const [x0, y0, x1, y1] = shape.bounds;
    return Math.hypot(Math.max(x0 - x, 0, x - x1), Math.max(y0 - y, 0, y - y1));
  }
  if (shape.dim === 2 && locateInArea(x, y, shape) !== 'outside') return 0;
  const parts = shape.dim === 1 ? shape.paths : shape.rings;
  let best = Number.POSITIVE_INFINITY;
  someSegment(parts, shape.dim === 2, (a, b) => {
    best = Math.min(best, distanceToSegmentSquared(x, y, a[0], a[1], b[0], b[1]));
    return best === 0;
  });
  return Math.sqrt(best);
}
