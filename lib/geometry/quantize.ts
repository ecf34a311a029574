import { isEnvelope, isMultipoint, isPoint, isPolygon, isPolyline } from './kinds.js';
import type { EsriGeometry } from './types.js';

/** Rounds to `digits` decimal places, the meaning of the `geometryPrecision` query parameter. */
export function roundTo(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}

const roundCoordinate = (c: readonly number[], digits: number): number[] => c.map((v) => roundTo(v, digits));

/**
 * The geometry with x/y (and z/m) rounded to `geometryPrecision` decimals. Consecutive vertices that
 * become equal are collapsed, so a quantized line carries no zero-length segments.
 */
export function quantizeGeometry<G extends EsriGeometry>(g: G, geometryPrecision: number): G {
  const d = Math.max(0, Math.floor(geometryPrecision));
  if (isPoint(g)) {
    const out = { ...g, x: roundTo(g.x, d), y: roundTo(g.y, d) };
    if (typeof g.z === 'number') out.z = roundTo(g.z, d);
    if (typeof g.m === 'number') out.m = roundTo(g.m, d);
    return out;
  }
  if (isMultipoint(g)) return { ...g, points: g.points.map((p) => roundCoordinate(p, d)) };
  if (isPolyline(g)) return { ...g, paths: g.paths.map((p) => dedupe(p.map((c) => roundCoordinate(c, d)))) };
  if (isPolygon(g)) {
    const rings = g.rings.map((r) => dedupe(r.map((c) => roundCoordinate(c, d))));
    // A ring rounded down to fewer than 4 positions has no area left; keep it only if it is all there is.
    const kept = rings.filter((r) => r.length >= 4);
    return { ...g, rings: kept.length > 0 ? kept : rings };
  }
  if (isEnvelope(g)) {
    return {
      ...g,
      xmin: roundTo(g.xmin, d),
      ymin: roundTo(g.ymin, d),
      xmax: roundTo(g.xmax, d),
      ymax: roundTo(g.ymax, d),
    };
  }
  return g;
}

function dedupe(coords: number[][]): number[][] {
  return coords.filter((c, i) => i === 0 || c[0] !== coords[i - 1][0] || c[1] !== coords[i - 1][1]);
}
