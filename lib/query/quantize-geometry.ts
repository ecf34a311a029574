import { isMultipoint, isPoint, isPolygon, isPolyline } from '../geometry/kinds.js';
import type { EsriGeometry } from '../geometry/types.js';
import type { QuantizeTransform } from './quantize-transform.js';
import { invalidParameter } from './query-errors.js';

/**
 * Esri JSON geometries on a quantization grid, in the layout ArcGIS answers and the Maps SDK for
 * JavaScript reads: a point's x/y are grid cells from the origin; a multipoint's points and each path
 * or ring start with absolute cells, every later vertex is the difference from the one before.
 *
 * `view` mode generalizes for drawing: a vertex in the same cell as the one before is dropped, then
 * paths with fewer than 2 vertices and rings with fewer than 3 (the Maps SDK's own thresholds) are
 * dropped; a line or polygon left with no part has no geometry (null) in the answer. `edit` mode keeps
 * every vertex and every part, only snapped.
 */
export type QuantizeMode = 'view' | 'edit';

const INT32 = 2 ** 31 - 1;

export function quantizeGeometry(
  g: EsriGeometry,
  t: QuantizeTransform,
  mode: QuantizeMode,
): EsriGeometry | null {
  const qx = gridX(t);
  const qy = gridY(t);
  if (isPoint(g)) return { x: checked(qx(g.x)), y: checked(qy(g.y)) };
  if (isMultipoint(g)) return { points: part(g.points, qx, qy, mode) };
  if (isPolyline(g)) {
    const paths = parts(g.paths, qx, qy, mode, 2);
    return paths.length > 0 ? { paths } : null;
  }
  if (isPolygon(g)) {
    const rings = parts(g.rings, qx, qy, mode, 3);
    return rings.length > 0 ? { rings } : null;
  }
  // Layers hold points, multipoints, lines and polygons only; an envelope never reaches an answer.
  throw new TypeError('quantizeGeometry: envelopes are not feature geometries');
}

type Grid = (v: number) => number;

const gridX =
  ({ scale, translate }: QuantizeTransform): Grid =>
  (x) =>
    Math.round((x - translate[0]) / scale[0]);

const gridY = ({ scale, translate, originPosition }: QuantizeTransform): Grid =>
  originPosition === 'upperLeft'
    ? (y) => Math.round((translate[1] - y) / scale[1])
    : (y) => Math.round((y - translate[1]) / scale[1]);

function parts(list: number[][][], qx: Grid, qy: Grid, mode: QuantizeMode, min: number): number[][][] {
  const out: number[][][] = [];
  for (const p of list) {
    const q = part(p, qx, qy, mode);
    if (mode === 'edit' || q.length >= min) out.push(q);
  }
  return out;
}

/** One part: absolute cells first, then differences; view mode drops repeats of the same cell. */
function part(coords: number[][], qx: Grid, qy: Grid, mode: QuantizeMode): number[][] {
  const out: number[][] = [];
  let px = 0;
  let py = 0;
  for (const c of coords) {
    const x = qx(c[0]);
    const y = qy(c[1]);
    if (out.length === 0) out.push([checked(x), checked(y)]);
    else if (mode === 'edit' || x !== px || y !== py) out.push([checked(x - px), checked(y - py)]);
    px = x;
    py = y;
  }
  return out;
}

/** PBF carries 32-bit integers; a grid too fine for the data is the request's fault, said plainly. */
function checked(v: number): number {
  if (Math.abs(v) > INT32 || Number.isNaN(v)) {
    throw invalidParameter(
      'quantizationParameters',
      'the grid is too fine for these coordinates (more than 2^31 cells from the origin); use a larger tolerance or an extent near the data',
    );
  }
  return v === 0 ? 0 : v;
}
