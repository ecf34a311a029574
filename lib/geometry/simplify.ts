import { isEnvelope, isMultipoint, isPoint, isPolygon, isPolyline } from './kinds.js';
import { ringSignedArea } from './point-in-polygon.js';
import { distanceToSegmentSquared } from './segments.js';
import type { EsriGeometry } from './types.js';

/**
 * Douglas–Peucker: keeps the vertices needed so that no dropped vertex lies farther than `tolerance`
 * from the kept line. Iterative (an explicit stack) so paths of millions of vertices cannot overflow.
 */
export function simplifyPath(path: readonly number[][], tolerance: number): number[][] {
  const n = path.length;
  if (n <= 2 || !(tolerance > 0)) return path.map((c) => c.slice());
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const toleranceSq = tolerance * tolerance;
  const stack: [number, number][] = [[0, n - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop()!;
    let farthest = -1;
    let farthestSq = toleranceSq;
    const a = path[first];
    const b = path[last];
    for (let i = first + 1; i < last; i++) {
      const d = distanceToSegmentSquared(path[i][0], path[i][1], a[0], a[1], b[0], b[1]);
      if (d > farthestSq) {
        farthestSq = d;
        farthest = i;
      }
    }
    if (farthest >= 0) {
      keep[farthest] = 1;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  const out: number[][] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(path[i].slice());
  return out;
}

/**
 * A closed ring simplified; a ring that collapses below a triangle (4 positions with the closing one)
 * or to no area is dropped (null), as generalising for display removes features smaller than a pixel.
 */
export function simplifyRing(ring: readonly number[][], tolerance: number): number[][] | null {
  const simplified = simplifyPath(ring, tolerance);
  if (simplified.length < 4 || ringSignedArea(simplified) === 0) return null;
  return simplified;
}

/**
 * The geometry generalised for `maxAllowableOffset` (in the geometry's units). Points are unchanged.
 * A polygon keeps at least its largest ring unsimplified rather than vanishing entirely.
 */
export function simplifyGeometry<G extends EsriGeometry>(g: G, maxAllowableOffset: number): G {
  if (!(maxAllowableOffset > 0) || isPoint(g) || isMultipoint(g) || isEnvelope(g)) return g;
  if (isPolyline(g)) {
    return { ...g, paths: g.paths.map((p) => simplifyPath(p, maxAllowableOffset)) };
  }
  if (isPolygon(g)) {
    const rings = g.rings.map((r) => simplifyRing(r, maxAllowableOffset)).filter((r) => r !== null);
    if (rings.length === 0 && g.rings.length > 0) {
      const largest = g.rings.reduce((best, r) =>
        Math.abs(ringSignedArea(r)) > Math.abs(ringSignedArea(best)) ? r : best,
      );
      return { ...g, rings: [largest.map((c) => c.slice())] };
    }
    return { ...g, rings };
  }
  return g;
}
