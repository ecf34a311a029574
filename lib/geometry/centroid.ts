import { locatePointInRings } from './point-in-polygon.js';
import type { EsriPolygon } from './types.js';

/**
 * The centroid (centre of mass) of a polygon, in its own coordinates, under the even-odd rule the
 * spatial filters use: a ring inside an odd number of others is a hole and counts against the area,
 * whatever direction it was drawn in. It may fall outside a concave polygon; it is not a label point.
 * Null for a polygon without area.
 */
export function polygonCentroid(polygon: EsriPolygon): { x: number; y: number } | null {
  const rings = polygon.rings.filter((r) => r.length >= 3);
  let area = 0;
  let sx = 0;
  let sy = 0;
  rings.forEach((ring, i) => {
    const r = ringMoments(ring);
    const depth = rings.filter(
      (other, j) => j !== i && locatePointInRings(ring[0][0], ring[0][1], [other]) === 'inside',
    ).length;
    const sign = (depth % 2 === 0 ? 1 : -1) * Math.sign(r.area);
    area += sign * r.area;
    sx += sign * r.mx;
    sy += sign * r.my;
  });
  if (area === 0 || !Number.isFinite(area)) return null;
  return { x: sx / area, y: sy / area };
}

/** Signed area and first moments of a ring (shoelace), relative to its first vertex for precision. */
function ringMoments(ring: readonly number[][]): { area: number; mx: number; my: number } {
  const [ox, oy] = ring[0];
  let a2 = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x0, y0] = ring[i];
    const [x1, y1] = ring[(i + 1) % ring.length];
    const ax = x0 - ox;
    const ay = y0 - oy;
    const bx = x1 - ox;
    const by = y1 - oy;
    const cross = ax * by - bx * ay;
    a2 += cross;
    cx += (ax + bx) * cross;
    cy += (ay + by) * cross;
  }
  const area = a2 / 2;
  // Moments about the origin: the centroid relative to (ox, oy), shifted back, times the area.
  return { area, mx: area === 0 ? 0 : cx / 6 + ox * area, my: area === 0 ? 0 : cy / 6 + oy * area };
}
