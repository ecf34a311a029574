import type { DrawContext, PixelPath } from './draw-context.js';
import { pictureKey } from './draw-context.js';
import { strokePath } from './stroke.js';
import { HATCH_MASKS, resolveLine, rgba } from './symbol-style.js';
import type { PictureFillSymbol, SimpleFillSymbol, SimpleLineSymbol } from './types.js';

/** Strokes paths (closed = polygon rings) with a line symbol. */
export function drawLines(
  ctx: DrawContext,
  symbol: SimpleLineSymbol,
  paths: readonly PixelPath[],
  closed: boolean,
): void {
  const line = resolveLine(symbol, ctx.dpi);
  if (!line) return;
  for (const p of paths) strokePath(ctx.raster, p.xy, p.count, closed, line.stroke, ctx.clip);
  ctx.raster.fill(ctx.canvas, line.color, 'nonzero', ctx.opacity);
}

/** The color a picture fill is drawn with: its image's mean color when decoded, else light grey. */
function pictureFillColor(ctx: DrawContext, symbol: PictureFillSymbol): [number, number, number, number] {
  const image = ctx.pictures?.get(pictureKey(symbol));
  if (!image || image.width * image.height === 0) return [200, 200, 200, 255];
  let r = 0;
  let g = 0;
  let b = 0;
  let a = 0;
  for (let i = 0; i < image.data.length; i += 4) {
    const w = image.data[i + 3];
    r += image.data[i] * w;
    g += image.data[i + 1] * w;
    b += image.data[i + 2] * w;
    a += w;
  }
  if (a === 0) return [0, 0, 0, 0];
  return [r / a, g / a, b / a, a / (image.width * image.height)];
}

/** Fills polygon rings (holes by the context's fill rule), then strokes the outline. */
export function drawFill(
  ctx: DrawContext,
  symbol: SimpleFillSymbol | PictureFillSymbol,
  rings: readonly PixelPath[],
): void {
  const style = symbol.type === 'esriSFS' ? (symbol.style ?? 'esriSFSSolid') : 'picture';
  const color = symbol.type === 'esriSFS' ? rgba(symbol.color) : pictureFillColor(ctx, symbol);
  if (style !== 'esriSFSNull' && color && color[3] > 0) {
    for (const ring of rings) ctx.raster.addRing(ring.xy, ring.count);
    ctx.raster.fill(ctx.canvas, color, ctx.fillRule, ctx.opacity, HATCH_MASKS[style]);
  }
  if (symbol.outline) drawLines(ctx, symbol.outline, rings, true);
}
