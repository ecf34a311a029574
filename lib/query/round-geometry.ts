import type { EsriGeometry } from '../geometry/types.js';

/** `geometryPrecision`: x and y rounded to that many decimal places (z and m as they are, as ArcGIS). */
export function roundGeometry(g: EsriGeometry, digits: number): EsriGeometry {
  const f = 10 ** digits;
  const r = (n: number) => Math.round(n * f) / f;
  const pos = (p: number[]) => (p.length > 2 ? [r(p[0]), r(p[1]), ...p.slice(2)] : p.map(r));
  if ('x' in g) return { ...g, x: r(g.x), y: r(g.y) };
  if ('points' in g) return { ...g, points: g.points.map(pos) };
  if ('paths' in g) return { ...g, paths: g.paths.map((p) => p.map(pos)) };
  if ('rings' in g) return { ...g, rings: g.rings.map((p) => p.map(pos)) };
  return { ...g, xmin: r(g.xmin), ymin: r(g.ymin), xmax: r(g.xmax), ymax: r(g.ymax) };
}
