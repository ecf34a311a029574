import { intersects } from './intersects.js';
import { distanceToSegmentSquared } from './segments.js';
import { locateInArea, type Shape, someSegment, toShape } from './shapes.js';
import type { Bounds, EsriGeometry } from './types.js';

/**
 * "Within `distance` of the query geometry", the test behind a buffered query filter: a feature
 * passes when it intersects the query geometry or its nearest part is at most `distance` away. That
 * is exactly "intersects the buffer", without building a buffer polygon (whose arcs would be
 * approximated by chords).
 *
 * Planar: coordinates in a projected reference, distance in its linear unit. Geodesic: longitude and
 * latitude in degrees, distance in metres on the sphere of the Earth's mean radius, edges read as
 * great-circle arcs; whether the shapes touch or one lies inside the other is decided in longitude and
 * latitude, as every other spatial relation of a geographic layer is.
 */
export type DistanceMetric = 'planar' | 'geodesic';

/** IUGG mean radius of the Earth, in metres. */
export const EARTH_MEAN_RADIUS = 6_371_008.8;

export function withinDistance(
  query: EsriGeometry,
  feature: EsriGeometry,
  distance: number,
  metric: DistanceMetric,
): boolean {
  const a = toShape(query);
  const b = toShape(feature);
  if (!a || !b) return false;
  if (intersects(query, feature)) return true;
  // Apart, the nearest pair of points always has a vertex of one shape as one of its ends.
  const limit = metric === 'planar' ? distance : distance / EARTH_MEAN_RADIUS;
  const near = metric === 'planar' ? planarNear : sphereNear;
  return someVertex(a, (p) => near(p, b, limit)) || someVertex(b, (p) => near(p, a, limit));
}

function someVertex(s: Shape, fn: (p: number[]) => boolean): boolean {
  const parts = s.dim === 0 ? [s.points] : s.dim === 1 ? s.paths : s.rings;
  return parts.some((part) => part.some(fn));
}

const segmentsOf = (s: Shape): { parts: number[][][]; closed: boolean } =>
  s.dim === 0
    ? { parts: s.points.map((p) => [p]), closed: false }
    : { parts: s.dim === 1 ? s.paths : s.rings, closed: s.dim === 2 };

function planarNear(p: number[], s: Shape, limit: number): boolean {
  if (s.dim === 2 && locateInArea(p[0], p[1], s) !== 'outside') return true;
  const { parts, closed } = segmentsOf(s);
  const squared = limit * limit;
  return someSegment(
    parts,
    closed,
    (a, b) => distanceToSegmentSquared(p[0], p[1], a[0], a[1], b[0], b[1]) <= squared,
  );
}

/** `limit` is an angle in radians (metres over the radius). */
function sphereNear(p: number[], s: Shape, limit: number): boolean {
  if (s.dim === 2 && locateInArea(p[0], p[1], s) !== 'outside') return true;
  const { parts, closed } = segmentsOf(s);
  const v = unitVector(p);
  return someSegment(parts, closed, (a, b) => angleToArc(v, unitVector(a), unitVector(b)) <= limit);
}

type Vec = [number, number, number];

function unitVector(p: readonly number[]): Vec {
  const lon = (p[0] * Math.PI) / 180;
  const lat = (p[1] * Math.PI) / 180;
  return [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
}

const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: Vec): number => Math.hypot(a[0], a[1], a[2]);

/** The central angle between two unit vectors (atan2 form: accurate for tiny and large angles). */
export const centralAngle = (a: Vec, b: Vec): number => Math.atan2(norm(cross(a, b)), dot(a, b));

/** The central angle from p to the minor great-circle arc a–b. */
function angleToArc(p: Vec, a: Vec, b: Vec): number {
  const n = cross(a, b);
  const length = norm(n);
  const ends = Math.min(centralAngle(p, a), centralAngle(p, b));
  if (length < 1e-15) return ends;
  // p's foot on the great circle lies on the arc when it is on a's and b's inner sides.
  if (dot(cross(a, p), n) >= 0 && dot(cross(p, b), n) >= 0) {
    return Math.min(ends, Math.abs(Math.asin(Math.max(-1, Math.min(1, dot(p, n) / length)))));
  }
  return ends;
}

/**
 * Bounds widened by `distance` for the index prefilter. Planar: by the distance. Geodesic (degrees,
 * distance in metres): latitude by the arc's angle δ; longitude by asin(sin δ / cos φ), the widest
 * longitude offset within δ of a point at latitude φ, taken at the bounds' latitude farthest from the
 * equator; around a pole or across the antimeridian, every longitude.
 */
export function expandBounds(b: Bounds, distance: number, metric: DistanceMetric): Bounds {
  if (metric === 'planar') return [b[0] - distance, b[1] - distance, b[2] + distance, b[3] + distance];
  const delta = distance / EARTH_MEAN_RADIUS;
  const dLat = (delta * 180) / Math.PI;
  const ymin = Math.max(b[1] - dLat, -90);
  const ymax = Math.min(b[3] + dLat, 90);
  const cosFar = Math.cos((Math.max(Math.abs(b[1]), Math.abs(b[3])) * Math.PI) / 180);
  if (delta >= Math.PI / 2 || ymin <= -90 || ymax >= 90 || Math.sin(delta) >= cosFar)
    return [-180, ymin, 180, ymax];
  const dLon = (Math.asin(Math.sin(delta) / cosFar) * 180) / Math.PI;
  const xmin = b[0] - dLon;
  const xmax = b[2] + dLon;
  if (xmin < -180 || xmax > 180) return [-180, ymin, 180, ymax];
  return [xmin, ymin, xmax, ymax];
}
