import { isEnvelope, isMultipoint, isPoint, isPolygon, isPolyline } from './kinds.js';
import type { Bounds, EsriGeometry } from './types.js';

/** Bounds of a list of coordinate arrays, or null when there is none. */
export function coordinatesBounds(parts: readonly (readonly number[])[][]): Bounds | null {
  let xmin = Number.POSITIVE_INFINITY;
  let ymin = Number.POSITIVE_INFINITY;
  let xmax = Number.NEGATIVE_INFINITY;
  let ymax = Number.NEGATIVE_INFINITY;
  for (const part of parts) {
    for (const c of part) {
      const x = c[0];
      const y = c[1];
      if (x < xmin) xmin = x;
      if (x > xmax) xmax = x;
      if (y < ymin) ymin = y;
      if (y > ymax) ymax = y;
    }
  }
  return xmin <= xmax ? [xmin, ymin, xmax, ymax] : null;
}

/** Bounds of any Esri geometry; null for an empty one. */
export function geometryBounds(g: EsriGeometry): Bounds | null {
  if (isPoint(g)) return Number.isFinite(g.x) && Number.isFinite(g.y) ? [g.x, g.y, g.x, g.y] : null;
  if (isMultipoint(g)) return coordinatesBounds([g.points]);
  if (isPolyline(g)) return coordinatesBounds(g.paths);
  if (isPolygon(g)) return coordinatesBounds(g.rings);
  if (isEnvelope(g)) {
    return [
      Math.min(g.xmin, g.xmax),
      Math.min(g.ymin, g.ymax),
      Math.max(g.xmin, g.xmax),
      Math.max(g.ymin, g.ymax),
    ];
  }
  return null;
}

/** Union of bounds, skipping nulls; null when all are null. */
export function unionBounds(list: readonly (Bounds | null)[]): Bounds | null {
  let out: Bounds | null = null;
  for (const b of list) {
    if (!b) continue;
    out = out
      ? [Math.min(out[0], b[0]), Math.min(out[1], b[1]), Math.max(out[2], b[2]), Math.max(out[3], b[3])]
      : [b[0], b[1], b[2], b[3]];
  }
  return out;
}

/** Closed-interval overlap: touching edges count as intersecting. */
export const boundsIntersect = (a: Bounds, b: Bounds): boolean =>
  a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** Whether `outer` covers `inner` entirely (edges may coincide). */
export const boundsContain = (outer: Bounds, inner: Bounds): boolean =>
  outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];

export const pointInBounds = (b: Bounds, x: number, y: number): boolean =>
  x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];
