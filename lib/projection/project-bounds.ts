import { type Bounds, type SpatialReference, WEB_MERCATOR } from '../geometry/types.js';
import { createTransformer, type Transformer } from './transformer.js';

/** Projects a box by its corners and edge midpoints (enough for the query boxes of tiles). */
export function projectBounds([xmin, ymin, xmax, ymax]: Bounds, t: Transformer): Bounds {
  if (t.identity) return [xmin, ymin, xmax, ymax];
  const xm = (xmin + xmax) / 2;
  const ym = (ymin + ymax) / 2;
  const pts = [
    [xmin, ymin],
    [xmax, ymin],
    [xmin, ymax],
    [xmax, ymax],
    [xm, ymin],
    [xm, ymax],
    [xmin, ym],
    [xmax, ym],
  ].map(([x, y]) => t.project(x, y));
  const xs = pts.map((p) => p[0]).filter(Number.isFinite);
  const ys = pts.map((p) => p[1]).filter(Number.isFinite);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

const WORLD = 20037508.342789244;

/** An envelope in Web Mercator, by its corners and edge midpoints, clamped to the world. */
export function toMercator(bounds: Bounds, from: SpatialReference): Bounds {
  const clamp = (v: number) => Math.max(-WORLD, Math.min(WORLD, v));
  const [xmin, ymin, xmax, ymax] = projectBounds(bounds, createTransformer(from, WEB_MERCATOR));
  return [clamp(xmin), clamp(ymin), clamp(xmax), clamp(ymax)];
}
