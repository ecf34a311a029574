import type { DrawContext } from './draw-context.js';
import { pictureKey } from './draw-context.js';
import { drawPicture } from './draw-picture.js';
import { addCircle, strokePath } from './stroke.js';
import { pointsToPixels, resolveLine, rgba } from './symbol-style.js';
import type { PictureMarkerSymbol, SimpleMarkerSymbol } from './types.js';

const shape = new Float64Array(2 * 64);
/** What a picture marker without a decoded image falls back to: a red dot, like the default RedSphere. */
const PICTURE_FALLBACK = { fill: [230, 40, 30, 255], outline: [130, 10, 10, 255] } as const;

/** How far from its anchor a marker can paint, in pixels (for culling). */
export function markerReach(symbol: SimpleMarkerSymbol | PictureMarkerSymbol, dpi: number): number {
  const offset = Math.hypot(symbol.xoffset ?? 0, symbol.yoffset ?? 0);
  if (symbol.type === 'esriPMS') {
    return pointsToPixels(Math.hypot(symbol.width ?? 15, symbol.height ?? 15) / 2 + offset, dpi) + 1;
  }
  const outline = symbol.outline?.width ?? 0;
  return pointsToPixels(((symbol.size ?? 8) * Math.SQRT2) / 2 + outline + offset, dpi) + 1;
}

export function drawMarker(
  ctx: DrawContext,
  symbol: SimpleMarkerSymbol | PictureMarkerSymbol,
  x: number,
  y: number,
): void {
  const cx = x + pointsToPixels(symbol.xoffset ?? 0, ctx.dpi);
  const cy = y - pointsToPixels(symbol.yoffset ?? 0, ctx.dpi);
  if (symbol.type === 'esriPMS') {
    drawPictureMarker(ctx, symbol, cx, cy);
    return;
  }
  const size = pointsToPixels(symbol.size ?? 8, ctx.dpi);
  if (!(size > 0)) return;
  const h = size / 2;
  const angle = ((symbol.angle ?? 0) * Math.PI) / 180;
  const style = symbol.style ?? 'esriSMSCircle';
  const fill = rgba(symbol.color);
  const outline = resolveLine(symbol.outline, ctx.dpi);
  const { raster, canvas, opacity, clip } = ctx;

  if (style === 'esriSMSCross' || style === 'esriSMSX') {
    const line =
      outline ??
      (fill
        ? { color: fill, stroke: { width: Math.max(1, size / 8), cap: 'butt', join: 'miter', miterLimit: 2 } }
        : undefined);
    if (!line) return;
    const turn = style === 'esriSMSX' ? angle + Math.PI / 4 : angle;
    for (const a of [turn, turn + Math.PI / 2]) {
      const dx = Math.cos(a) * h;
      const dy = -Math.sin(a) * h;
      shape[0] = cx - dx;
      shape[1] = cy - dy;
      shape[2] = cx + dx;
      shape[3] = cy + dy;
      strokePath(raster, shape, 2, false, { ...line.stroke, cap: 'butt' }, clip);
    }
    raster.fill(canvas, line.color, 'nonzero', opacity);
    return;
  }

  if (style === 'esriSMSSquare' || style === 'esriSMSDiamond' || style === 'esriSMSTriangle') {
    const count = polygonShape(style, cx, cy, h, angle);
    if (fill && fill[3] > 0) {
      raster.addRing(shape, count, 1);
      raster.fill(canvas, fill, 'nonzero', opacity);
    }
    if (outline) {
      strokePath(raster, shape, count, true, { ...outline.stroke, join: 'miter', miterLimit: 4 }, clip);
      raster.fill(canvas, outline.color, 'nonzero', opacity);
    }
    return;
  }

  // Circle, and shapes we do not draw exactly (esriSMSPath): a circle of the same size.
  if (fill && fill[3] > 0) {
    addCircle(raster, cx, cy, h);
    raster.fill(canvas, fill, 'nonzero', opacity);
  }
  if (outline) {
    const half = outline.stroke.width / 2;
    addCircle(raster, cx, cy, h + half, undefined, 1);
    if (h - half > 0) addCircle(raster, cx, cy, h - half, undefined, -1);
    raster.fill(canvas, outline.color, 'nonzero', opacity);
  }
}

/** Writes the corners of a square, diamond or triangle into `shape`; returns the corner count. */
function polygonShape(style: string, cx: number, cy: number, h: number, angle: number): number {
  const corners =
    style === 'esriSMSSquare'
      ? [-h, -h, h, -h, h, h, -h, h]
      : style === 'esriSMSDiamond'
        ? [0, -h, h, 0, 0, h, -h, 0]
        : [0, -h, h, h * 0.732, -h, h * 0.732];
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const count = corners.length / 2;
  for (let i = 0; i < count; i++) {
    const lx = corners[i * 2];
    const ly = corners[i * 2 + 1];
    // Counter-clockwise on screen (y down).
    shape[i * 2] = cx + lx * cos + ly * sin;
    shape[i * 2 + 1] = cy - lx * sin + ly * cos;
  }
  return count;
}

function drawPictureMarker(ctx: DrawContext, symbol: PictureMarkerSymbol, cx: number, cy: number): void {
  const w = pointsToPixels(symbol.width ?? 15, ctx.dpi);
  const h = pointsToPixels(symbol.height ?? symbol.width ?? 15, ctx.dpi);
  if (!(w > 0 && h > 0)) return;
  const image = ctx.pictures?.get(pictureKey(symbol));
  if (image) {
    drawPicture(ctx.canvas, image, cx, cy, w, h, ((symbol.angle ?? 0) * Math.PI) / 180, ctx.opacity);
    return;
  }
  // No decoded image: a shaded circle of the picture's size keeps the feature visible.
  const radius = Math.min(w, h) / 2;
  const ring = Math.max(0.75, radius / 6);
  addCircle(ctx.raster, cx, cy, radius);
  ctx.raster.fill(ctx.canvas, PICTURE_FALLBACK.outline, 'nonzero', ctx.opacity);
  addCircle(ctx.raster, cx, cy, radius - ring);
  ctx.raster.fill(ctx.canvas, PICTURE_FALLBACK.fill, 'nonzero', ctx.opacity);
}
