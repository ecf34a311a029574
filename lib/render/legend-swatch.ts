import { Canvas } from './canvas.js';
import type { DrawContext, PixelPath } from './draw-context.js';
import { drawMarker } from './draw-marker.js';
import { drawFill, drawLines } from './draw-shape.js';
import { Rasterizer } from './rasterizer.js';
import { pointsToPixels } from './symbol-style.js';
import type { EsriSymbol, RgbaImage } from './types.js';

export interface SwatchOptions {
  dpi?: number;
  pictures?: ReadonlyMap<string, RgbaImage>;
}

/**
 * A legend patch for a symbol as straight RGBA (w×h): markers centred (offsets ignored), lines as a
 * horizontal stroke across the patch, fills as a rectangle inset so the outline stays inside.
 */
export function renderLegendSwatch(
  symbol: EsriSymbol,
  width: number,
  height: number,
  options: SwatchOptions = {},
): Uint8Array {
  const canvas = new Canvas(width, height);
  const dpi = options.dpi ?? 96;
  const ctx: DrawContext = {
    canvas,
    raster: new Rasterizer(width, height),
    dpi,
    opacity: 1,
    clip: { xmin: 0, ymin: 0, xmax: width, ymax: height },
    fillRule: 'nonzero',
    pictures: options.pictures,
  };
  if (symbol.type === 'esriSMS' || symbol.type === 'esriPMS') {
    drawMarker(ctx, { ...symbol, xoffset: 0, yoffset: 0 }, width / 2, height / 2);
  } else if (symbol.type === 'esriSLS') {
    const margin = Math.min(2, width / 4);
    const line: PixelPath = { xy: Float64Array.of(margin, height / 2, width - margin, height / 2), count: 2 };
    drawLines(ctx, { ...symbol, cap: symbol.cap ?? 'butt' }, [line], false);
  } else if (symbol.type === 'esriSFS' || symbol.type === 'esriPFS') {
    const inset = Math.max(1, pointsToPixels(symbol.outline?.width ?? 0, dpi) / 2 + 0.5);
    const [x0, y0, x1, y1] = [inset, inset, width - inset, height - inset];
    const ring: PixelPath = { xy: Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1), count: 4 };
    drawFill(ctx, symbol, [ring]);
  }
  return canvas.data;
}
