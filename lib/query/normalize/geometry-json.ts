import { declaredGeometryType } from '../../geometry/kinds.js';
import type { Bounds, EsriGeometry, EsriGeometryType } from '../../geometry/types.js';
import { fail, isRecord } from './parameter-values.js';

/**
 * Checks an Esri JSON geometry of the `geometry` parameter and computes its envelope.
 * Shapes follow the Esri JSON geometry objects: point {x,y}, multipoint {points}, polyline
 * {paths}, polygon {rings}, envelope {xmin,ymin,xmax,ymax}.
 */
export const inferGeometryType = (v: Record<string, unknown>): EsriGeometryType | null =>
  declaredGeometryType(v);

export function checkGeometry(
  v: Record<string, unknown>,
  type: EsriGeometryType,
): { geometry: EsriGeometry; bounds: Bounds } {
  switch (type) {
    case 'esriGeometryPoint': {
      const x = coordinate(v.x);
      const y = coordinate(v.y);
      return { geometry: { x, y }, bounds: [x, y, x, y] };
    }
    case 'esriGeometryEnvelope': {
      const [xmin, ymin, xmax, ymax] = [v.xmin, v.ymin, v.xmax, v.ymax].map(coordinate);
      return { geometry: { xmin, ymin, xmax, ymax }, bounds: envelopeBounds(xmin, ymin, xmax, ymax) };
    }
    case 'esriGeometryMultipoint': {
      const points = positions(v.points, 'points');
      return { geometry: { points }, bounds: boundsOf(points) };
    }
    case 'esriGeometryPolyline': {
      const paths = parts(v.paths, 'paths', 2);
      return { geometry: { paths }, bounds: boundsOf(paths.flat()) };
    }
    case 'esriGeometryPolygon': {
      const rings = parts(v.rings, 'rings', 3);
      return { geometry: { rings }, bounds: boundsOf(rings.flat()) };
    }
  }
}

export const envelopeBounds = (xmin: number, ymin: number, xmax: number, ymax: number): Bounds => [
  Math.min(xmin, xmax),
  Math.min(ymin, ymax),
  Math.max(xmin, xmax),
  Math.max(ymin, ymax),
];

function coordinate(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw fail('geometry', 'coordinates must be finite numbers');
  return v;
}

function position(v: unknown): number[] {
  if (!Array.isArray(v) || v.length < 2) throw fail('geometry', 'each position must be an array [x, y, ...]');
  return v.map(coordinate);
}

function positions(v: unknown, key: string): number[][] {
  if (!Array.isArray(v) || v.length === 0) throw fail('geometry', `'${key}' must be a non-empty array`);
  return v.map(position);
}

function parts(v: unknown, key: string, minLength: number): number[][][] {
  if (!Array.isArray(v) || v.length === 0) throw fail('geometry', `'${key}' must be a non-empty array`);
  return v.map((part) => {
    const ps = positions(part, key);
    if (ps.length < minLength)
      throw fail('geometry', `each of '${key}' needs at least ${minLength} positions`);
    return ps;
  });
}

function boundsOf(points: number[][]): Bounds {
  const b: Bounds = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  for (const [x, y] of points) {
    b[0] = Math.min(b[0], x);
    b[1] = Math.min(b[1], y);
    b[2] = Math.max(b[2], x);
    b[3] = Math.max(b[3], y);
  }
  return b;
}

export const asRecord = (v: unknown): Record<string, unknown> => {
  if (!isRecord(v)) throw fail('geometry', 'the geometry must be a JSON object');
  return v;
};
