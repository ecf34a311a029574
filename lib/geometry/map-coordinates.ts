import { isEnvelope, isMultipoint, isPoint, isPolygon, isPolyline } from './kinds.js';
import type { EsriGeometry } from './types.js';

/** Maps one [x, y] pair to another; extra ordinates (z, m) are carried over by the caller. */
export type XYMapper = (x: number, y: number) => [number, number];

const mapPosition = (c: readonly number[], fn: XYMapper): number[] => {
  const [x, y] = fn(c[0], c[1]);
  return c.length > 2 ? [x, y, ...c.slice(2)] : [x, y];
};

/**
 * A copy of the geometry with every vertex mapped by fn (projection, scaling). An envelope maps its
 * corners and edge midpoints and takes their bounds, as a projected rectangle is no longer one.
 * The spatial reference is dropped: the caller states the new one.
 */
export function mapCoordinates(g: EsriGeometry, fn: XYMapper): EsriGeometry {
  if (isPoint(g)) {
    const [x, y] = fn(g.x, g.y);
    const out: EsriGeometry = { x, y };
    if (typeof g.z === 'number') out.z = g.z;
    if (typeof g.m === 'number') out.m = g.m;
    return out;
  }
  if (isMultipoint(g)) return { points: g.points.map((c) => mapPosition(c, fn)) };
  if (isPolyline(g)) return { paths: g.paths.map((p) => p.map((c) => mapPosition(c, fn))) };
  if (isPolygon(g)) return { rings: g.rings.map((r) => r.map((c) => mapPosition(c, fn))) };
  if (isEnvelope(g)) return mapEnvelope(g.xmin, g.ymin, g.xmax, g.ymax, fn);
  return g;
}

/** Samples along the edges so curved projected edges still fall inside the result. */
function mapEnvelope(xmin: number, ymin: number, xmax: number, ymax: number, fn: XYMapper): EsriGeometry {
  const steps = 8;
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  const take = (x: number, y: number) => {
    const [px, py] = fn(x, y);
    if (!Number.isFinite(px) || !Number.isFinite(py)) return;
    x0 = Math.min(x0, px);
    y0 = Math.min(y0, py);
    x1 = Math.max(x1, px);
    y1 = Math.max(y1, py);
  };
  for (let i = 0; i <= steps; i++) {
    const fx = xmin + ((xmax - xmin) * i) / steps;
    const fy = ymin + ((ymax - ymin) * i) / steps;
    take(fx, ymin);
    take(fx, ymax);
    take(xmin, fy);
    take(xmax, fy);
  }
  return { xmin: x0, ymin: y0, xmax: x1, ymax: y1 };
}
