import { type Dimensions, XY } from '../geometry/dimensions.js';
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

/** A quantized geometry flat, as PBF carries it: vertices per part, then every part's cells in a row. */
export interface QuantizedParts {
  /** Empty for a point. */
  lengths: number[];
  coords: number[];
}

const INT32 = 2 ** 31 - 1;

/** The geometry on the grid as Esri JSON (the f=json answer), or null when view mode leaves no part. */
export function quantizeGeometry(
  g: EsriGeometry,
  t: QuantizeTransform,
  mode: QuantizeMode,
): EsriGeometry | null {
  const q = quantizeParts(g, t, mode);
  if (!q) return null;
  if (isPoint(g)) return { x: q.coords[0], y: q.coords[1] };
  const parts: number[][][] = [];
  let at = 0;
  for (const n of q.lengths) {
    const part: number[][] = [];
    for (let i = 0; i < n; i++, at += 2) part.push([q.coords[at], q.coords[at + 1]]);
    parts.push(part);
  }
  if (isMultipoint(g)) return { points: parts[0] ?? [] };
  return isPolyline(g) ? { paths: parts } : { rings: parts };
}

/**
 * The geometry on the grid, flat (the f=pbf answer), or null when view mode leaves no part. With a
 * `layout` of z and/or m (vertices [x, y, z?, m?], points' z and m keys) and the transform's z and m
 * grids, every vertex carries its z then m cells after x and y, delta-encoded as x and y are.
 */
export function quantizeParts(
  g: EsriGeometry,
  t: QuantizeTransform,
  mode: QuantizeMode,
  layout: Dimensions = XY,
): QuantizedParts | null {
  const qx = gridX(t);
  const qy = gridY(t);
  const extra = extraGrids(t, layout);
  if (isPoint(g)) {
    const coords = [checked(qx(g.x)), checked(qy(g.y))];
    const position = [
      g.x,
      g.y,
      ...(layout.hasZ ? [g.z as number] : []),
      ...(layout.hasM ? [g.m as number] : []),
    ];
    for (const e of extra) coords.push(checked(e(position)));
    return { lengths: [], coords };
  }
  const out: QuantizedParts = { lengths: [], coords: [] };
  if (isMultipoint(g)) {
    part(g.points, qx, qy, mode, 1, out, extra);
    return out;
  }
  if (isPolyline(g)) for (const p of g.paths) part(p, qx, qy, mode, 2, out, extra);
  else if (isPolygon(g)) for (const r of g.rings) part(r, qx, qy, mode, 3, out, extra);
  // Layers hold points, multipoints, lines and polygons only; an envelope never reaches an answer.
  else throw new TypeError('quantizeParts: envelopes are not feature geometries');
  return out.lengths.length > 0 ? out : null;
}

type Grid = (v: number) => number;
/** The cell of one extra ordinate (z or m) of a vertex. */
type ExtraGrid = (position: readonly number[]) => number;

/** z then m cells, read from where the layout puts them; a vertex without its m cannot be sent. */
function extraGrids(t: QuantizeTransform, layout: Dimensions): ExtraGrid[] {
  const out: ExtraGrid[] = [];
  if (layout.hasZ) {
    if (!t.z) throw new TypeError('quantizeParts: a layout with z needs the transform of z');
    const { scale, translate } = t.z;
    out.push((p) => Math.round((p[2] - translate) / scale));
  }
  if (layout.hasM) {
    if (!t.m) throw new TypeError('quantizeParts: a layout with m needs the transform of m');
    const { scale, translate } = t.m;
    const at = layout.hasZ ? 3 : 2;
    out.push((p) => {
      const m = p[at];
      if (typeof m !== 'number' || !Number.isFinite(m))
        throw invalidParameter('returnM', 'a vertex has no m value, which PBF cannot carry; ask f=json');
      return Math.round((m - translate) / scale);
    });
  }
  return out;
}

const gridX =
  ({ scale, translate }: QuantizeTransform): Grid =>
  (x) =>
    Math.round((x - translate[0]) / scale[0]);

const gridY = ({ scale, translate, originPosition }: QuantizeTransform): Grid =>
  originPosition === 'upperLeft'
    ? (y) => Math.round((translate[1] - y) / scale[1])
    : (y) => Math.round((y - translate[1]) / scale[1]);

/**
 * Appends one part: absolute cells first, then differences; view mode drops repeats of the same cell
 * and then the whole part when fewer than `min` vertices are left.
 */
function part(
  coords: number[][],
  qx: Grid,
  qy: Grid,
  mode: QuantizeMode,
  min: number,
  out: QuantizedParts,
  extra: readonly ExtraGrid[] = [],
) {
  const start = out.coords.length;
  let n = 0;
  let px = 0;
  let py = 0;
  const previous = extra.map(() => 0);
  for (const c of coords) {
    const x = qx(c[0]);
    const y = qy(c[1]);
    if (n === 0) out.coords.push(checked(x), checked(y));
    else if (mode === 'edit' || x !== px || y !== py) out.coords.push(checked(x - px), checked(y - py));
    else continue;
    for (let k = 0; k < extra.length; k++) {
      const v = extra[k](c);
      out.coords.push(checked(n === 0 ? v : v - previous[k]));
      previous[k] = v;
    }
    n++;
    px = x;
    py = y;
  }
  if (mode === 'view' && n < min) out.coords.length = start;
  else out.lengths.push(n);
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
