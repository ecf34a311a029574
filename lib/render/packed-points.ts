/**
 * Points drawn without attributes (most of a point layer's reads for a tile cache), as one Float64Array
 * of x, y pairs in Web Mercator instead of an object per point: read straight from the database's
 * bytes, handed to a drawing thread without a copy, and made into features only a metatile at a time.
 */
import type { Bounds } from '../geometry/types.js';

export interface PackedPoints {
  xy: Float64Array;
}

/** A point as the drawing code takes it (a LocatedFeature). */
export interface PackedPoint {
  geometry: { x: number; y: number };
  attributes: Record<string, unknown>;
  bounds: Bounds;
}

/** The attributes of every packed point: none. */
export const NO_ATTRIBUTES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

export const isPacked = (features: object): features is PackedPoints => !Array.isArray(features);

export const packedCount = (p: PackedPoints): number => p.xy.length / 2;

/** True when some point of `p` lies within `area` (edges included). */
export function packedPointsMeet(p: PackedPoints, area: Bounds): boolean {
  const { xy } = p;
  for (let i = 0; i + 1 < xy.length; i += 2) {
    const x = xy[i];
    const y = xy[i + 1];
    if (x >= area[0] && x <= area[2] && y >= area[1] && y <= area[3]) return true;
  }
  return false;
}

/** The points of `p` within `area` (edges included), in order, as features. */
export function packedPointsIn(p: PackedPoints, area?: Bounds): PackedPoint[] {
  const { xy } = p;
  const out: PackedPoint[] = [];
  for (let i = 0; i + 1 < xy.length; i += 2) {
    const x = xy[i];
    const y = xy[i + 1];
    if (area && (x < area[0] || x > area[2] || y < area[1] || y > area[3])) continue;
    out.push({ geometry: { x, y }, attributes: NO_ATTRIBUTES, bounds: [x, y, x, y] });
  }
  return out;
}
