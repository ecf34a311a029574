import type { EsriGeometry } from '../geometry/types.js';
import type { DrawContext, PixelPath } from './draw-context.js';
import { drawMarker } from './draw-marker.js';
import { drawFill, drawLines } from './draw-shape.js';
import { symbolReach } from './symbol-reach.js';
import type { EsriSymbol } from './types.js';

/** Map → pixel transform of one image: px = (x − xmin)·sx, py = (ymax − y)·sy. */
export interface PixelView {
  xmin: number;
  ymax: number;
  sx: number;
  sy: number;
  width: number;
  height: number;
}

/** Draws one geometry with one symbol: markers on points, strokes on lines, fills on polygons. */
export function drawFeature(
  ctx: DrawContext,
  view: PixelView,
  geometry: EsriGeometry,
  symbol: EsriSymbol,
): void {
  const reach = symbolReach(symbol, ctx.dpi);
  const isMarker = symbol.type === 'esriSMS' || symbol.type === 'esriPMS';
  if ('x' in geometry) {
    if (isMarker) drawPoint(ctx, view, geometry.x, geometry.y, symbol, reach);
    return;
  }
  if ('points' in geometry) {
    if (isMarker) for (const p of geometry.points) drawPoint(ctx, view, p[0], p[1], symbol, reach);
    return;
  }
  const parts =
    'paths' in geometry
      ? geometry.paths
      : 'rings' in geometry
        ? geometry.rings
        : [
            [
              [geometry.xmin, geometry.ymin],
              [geometry.xmin, geometry.ymax],
              [geometry.xmax, geometry.ymax],
              [geometry.xmax, geometry.ymin],
            ],
          ];
  const polygon = !('paths' in geometry);
  const box = partsBox(parts);
  if (!box || !boxVisible(view, box, reach)) return;
  if (isMarker) {
    // A marker symbol on a line or polygon: one marker at the middle of its extent.
    drawPoint(ctx, view, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, symbol, reach);
    return;
  }
  const pixelParts = toPixels(view, parts, polygon);
  if (symbol.type === 'esriSLS') drawLines(ctx, symbol, pixelParts, polygon);
  else if (polygon && (symbol.type === 'esriSFS' || symbol.type === 'esriPFS'))
    drawFill(ctx, symbol, pixelParts);
}

/**
 * Draws the marker `symbol` at map point (x, y) (reach: symbolReach of the symbol), as drawFeature draws a
 * point geometry: for callers that draw many bare points with one symbol, without a geometry object each.
 */
export function drawPoint(
  ctx: DrawContext,
  view: PixelView,
  x: number,
  y: number,
  symbol: EsriSymbol,
  reach: number,
): void {
  if (symbol.type !== 'esriSMS' && symbol.type !== 'esriPMS') return;
  if (!Number.isFinite(x) || !Number.isFinite(y)) return;
  const px = (x - view.xmin) * view.sx;
  const py = (view.ymax - y) * view.sy;
  if (px < -reach || py < -reach || px > view.width + reach || py > view.height + reach) return;
  if (ctx.sprites?.stamp(ctx.canvas, symbol, px, py, ctx.opacity)) return;
  drawMarker(ctx, symbol, px, py);
}

function partsBox(parts: number[][][]): [number, number, number, number] | undefined {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const part of parts) {
    for (const p of part) {
      if (p[0] < x0) x0 = p[0];
      if (p[0] > x1) x1 = p[0];
      if (p[1] < y0) y0 = p[1];
      if (p[1] > y1) y1 = p[1];
    }
  }
  return x0 <= x1 ? [x0, y0, x1, y1] : undefined;
}

function boxVisible(
  view: PixelView,
  [x0, y0, x1, y1]: [number, number, number, number],
  reach: number,
): boolean {
  const left = (x0 - view.xmin) * view.sx;
  const right = (x1 - view.xmin) * view.sx;
  const top = (view.ymax - y1) * view.sy;
  const bottom = (view.ymax - y0) * view.sy;
  return right >= -reach && left <= view.width + reach && bottom >= -reach && top <= view.height + reach;
}

/** Parts in pixels; a closing point that repeats the first is dropped from polygon rings. */
function toPixels(view: PixelView, parts: number[][][], closed: boolean): PixelPath[] {
  const out: PixelPath[] = [];
  for (const part of parts) {
    let count = part.length;
    if (closed && count > 1) {
      const first = part[0];
      const last = part[count - 1];
      if (first[0] === last[0] && first[1] === last[1]) count--;
    }
    if (count < 2) continue;
    const xy = new Float64Array(count * 2);
    for (let i = 0; i < count; i++) {
      xy[i * 2] = (part[i][0] - view.xmin) * view.sx;
      xy[i * 2 + 1] = (view.ymax - part[i][1]) * view.sy;
    }
    out.push({ xy, count });
  }
  return out;
}
