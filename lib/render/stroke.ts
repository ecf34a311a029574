import { dashes } from './dashes.js';
import type { Rasterizer } from './rasterizer.js';

export type LineCap = 'butt' | 'round' | 'square';
export type LineJoin = 'round' | 'miter' | 'bevel';

export interface StrokeStyle {
  /** Pixels. */
  width: number;
  cap: LineCap;
  join: LineJoin;
  miterLimit: number;
  /** Dash pattern in pixels (on, off, on, off, …); empty or absent = solid. */
  dash?: number[];
}

/** Pixel rectangle outside which stroke pieces are not generated (the canvas plus a margin). */
export interface ClipBox {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

// Scratch for one piece (quad, join or cap circle): no allocation per segment.
const piece = new Float64Array(2 * 72);

/**
 * Adds the outline of a stroked path to the rasterizer as overlapping pieces (one quad per segment,
 * round/miter/bevel pieces at joins, caps at the ends), each with positive winding: fill it with the
 * nonzero rule. Overlaps merge exactly inside; along the outer edge where two pieces overlap inside
 * one pixel the coverage is slightly overestimated, which is invisible at tile sizes.
 */
export function strokePath(
  r: Rasterizer,
  xy: ArrayLike<number>,
  count: number,
  closed: boolean,
  style: StrokeStyle,
  clip: ClipBox,
): void {
  if (count < 2 || style.width <= 0) return;
  if (style.dash && style.dash.length >= 2 && style.dash.some((d) => d > 0)) {
    for (const dash of dashes(xy, count, closed, style.dash))
      strokeSolid(r, dash, dash.length / 2, false, style, clip);
    return;
  }
  strokeSolid(r, xy, count, closed, style, clip);
}

function strokeSolid(
  r: Rasterizer,
  xy: ArrayLike<number>,
  count: number,
  closed: boolean,
  style: StrokeStyle,
  clip: ClipBox,
): void {
  const h = style.width / 2;
  const pad = h * Math.max(style.miterLimit, 1.5) + 1;
  const segments = closed ? count : count - 1;
  let drewAny = false;
  for (let s = 0; s < segments; s++) {
    const i = s;
    const j = (s + 1) % count;
    let ax = xy[i * 2];
    let ay = xy[i * 2 + 1];
    let bx = xy[j * 2];
    let by = xy[j * 2 + 1];
    const dx = bx - ax;
    const dy = by - ay;
    const len = Math.hypot(dx, dy);
    if (len === 0) continue;
    if (outside(ax, ay, bx, by, clip, pad)) continue;
    const ux = dx / len;
    const uy = dy / len;
    if (!closed && style.cap === 'square') {
      if (s === 0) [ax, ay] = [ax - ux * h, ay - uy * h];
      if (s === segments - 1) [bx, by] = [bx + ux * h, by + uy * h];
    }
    const nx = -uy * h;
    const ny = ux * h;
    piece[0] = ax + nx;
    piece[1] = ay + ny;
    piece[2] = bx + nx;
    piece[3] = by + ny;
    piece[4] = bx - nx;
    piece[5] = by - ny;
    piece[6] = ax - nx;
    piece[7] = ay - ny;
    r.addRing(piece, 4, 1);
    drewAny = true;
  }
  if (!drewAny) return;
  // Joins at interior vertices (and at the closing vertex of a ring).
  const firstJoin = closed ? 0 : 1;
  const lastJoin = closed ? count - 1 : count - 2;
  for (let v = firstJoin; v <= lastJoin; v++) {
    const px = xy[v * 2];
    const py = xy[v * 2 + 1];
    if (px < clip.xmin - pad || px > clip.xmax + pad || py < clip.ymin - pad || py > clip.ymax + pad)
      continue;
    const prev = prevDistinct(xy, count, v, closed);
    const next = nextDistinct(xy, count, v, closed);
    if (prev < 0 || next < 0) continue;
    addJoin(r, xy, prev, v, next, h, style);
  }
  if (!closed && style.cap === 'round') {
    addCircle(r, xy[0], xy[1], h, clip);
    addCircle(r, xy[(count - 1) * 2], xy[(count - 1) * 2 + 1], h, clip);
  }
}

function addJoin(
  r: Rasterizer,
  xy: ArrayLike<number>,
  a: number,
  v: number,
  b: number,
  h: number,
  style: StrokeStyle,
): void {
  const px = xy[v * 2];
  const py = xy[v * 2 + 1];
  const d1x = px - xy[a * 2];
  const d1y = py - xy[a * 2 + 1];
  const d2x = xy[b * 2] - px;
  const d2y = xy[b * 2 + 1] - py;
  const l1 = Math.hypot(d1x, d1y);
  const l2 = Math.hypot(d2x, d2y);
  const cross = d1x * d2y - d1y * d2x;
  const dot = d1x * d2x + d1y * d2y;
  // A gentle forward turn leaves a gap under a tenth of the half-width: not worth a join piece.
  if (dot > 0 && Math.abs(cross) < 0.1 * l1 * l2) return;
  // Below 3 px a round join and a bevel differ by well under a pixel; the bevel is 3 edges, not 8+.
  if (style.join === 'round' && h >= 1.5) {
    addCircle(r, px, py, h);
    return;
  }
  // Normals on the outer side of the turn.
  const side = cross > 0 ? -1 : 1;
  const n1x = (-d1y / l1) * h * side;
  const n1y = (d1x / l1) * h * side;
  const n2x = (-d2y / l2) * h * side;
  const n2y = (d2x / l2) * h * side;
  piece[0] = px;
  piece[1] = py;
  piece[2] = px + n1x;
  piece[3] = py + n1y;
  let n = 2;
  if (style.join === 'miter') {
    const mx = n1x + n2x;
    const my = n1y + n2y;
    const ml = Math.hypot(mx, my);
    // cos of half the turn = |m| / (2h); miter length = h / cos.
    const ratio = ml > 0 ? (2 * h) / ml : Number.POSITIVE_INFINITY;
    if (ratio <= style.miterLimit) {
      const tip = (h * ratio) / ml;
      piece[4] = px + mx * tip;
      piece[5] = py + my * tip;
      n = 3;
    }
  }
  piece[n * 2] = px + n2x;
  piece[n * 2 + 1] = py + n2y;
  r.addRing(piece, n + 1, 1);
}

/** Adds a filled circle (as a polygon fine enough for its radius); winding −1 cuts it out of others. */
export function addCircle(
  r: Rasterizer,
  cx: number,
  cy: number,
  radius: number,
  clip?: ClipBox,
  winding: 1 | -1 = 1,
): void {
  if (radius <= 0) return;
  if (
    clip &&
    (cx + radius < clip.xmin || cx - radius > clip.xmax || cy + radius < clip.ymin || cy - radius > clip.ymax)
  ) {
    return;
  }
  const n = circleSegments(radius);
  for (let k = 0; k < n; k++) {
    const t = (2 * Math.PI * k) / n;
    piece[k * 2] = cx + radius * Math.cos(t);
    piece[k * 2 + 1] = cy + radius * Math.sin(t);
  }
  r.addRing(piece, n, winding);
}

/** Enough segments that the chord error stays under about 1/8 px, between 8 and 64. */
export function circleSegments(radius: number): number {
  const n = Math.ceil(Math.PI / Math.acos(Math.max(-1, 1 - 0.125 / Math.max(radius, 0.125))));
  return Math.max(8, Math.min(64, n));
}

function outside(ax: number, ay: number, bx: number, by: number, c: ClipBox, pad: number): boolean {
  return (
    (ax < c.xmin - pad && bx < c.xmin - pad) ||
    (ax > c.xmax + pad && bx > c.xmax + pad) ||
    (ay < c.ymin - pad && by < c.ymin - pad) ||
    (ay > c.ymax + pad && by > c.ymax + pad)
  );
}

function prevDistinct(xy: ArrayLike<number>, count: number, v: number, closed: boolean): number {
  for (let k = 1; k < count; k++) {
    const i = v - k;
    if (i < 0 && !closed) return -1;
    const j = (i + count) % count;
    if (xy[j * 2] !== xy[v * 2] || xy[j * 2 + 1] !== xy[v * 2 + 1]) return j;
  }
  return -1;
}

function nextDistinct(xy: ArrayLike<number>, count: number, v: number, closed: boolean): number {
  for (let k = 1; k < count; k++) {
    const i = v + k;
    if (i >= count && !closed) return -1;
    const j = i % count;
    if (xy[j * 2] !== xy[v * 2] || xy[j * 2 + 1] !== xy[v * 2 + 1]) return j;
  }
  return -1;
}
