import type { Bounds } from '../geometry/types.js';
import { markerReach } from './draw-marker.js';
import { legendClasses } from './renderer-symbols.js';
import { pointsToPixels } from './symbol-style.js';
import type { DrawingInfo, EsriSymbol } from './types.js';

/** How far past its geometry a symbol can paint, in pixels. */
export function symbolReach(symbol: EsriSymbol, dpi: number): number {
  if (symbol.type === 'esriSMS' || symbol.type === 'esriPMS') return markerReach(symbol, dpi);
  if (symbol.type === 'esriSLS') return pointsToPixels(symbol.width ?? 0.75, dpi) + 1;
  if (symbol.type === 'esriSFS' || symbol.type === 'esriPFS')
    return pointsToPixels(symbol.outline?.width ?? 0, dpi) + 1;
  return 0;
}

/**
 * The largest reach of any symbol a layer's renderer can draw (size visual variables included), in
 * pixels: features this far outside a tile still paint into it, so the tile's feature query must
 * reach this much further.
 */
export function maxSymbolReach(drawingInfo: DrawingInfo | null | undefined, dpi = 96): number {
  const renderer = drawingInfo?.renderer;
  if (!renderer) return pointsToPixels(8, dpi);
  let reach = 0;
  for (const c of legendClasses(renderer)) reach = Math.max(reach, symbolReach(c.symbol, dpi));
  for (const vv of renderer.visualVariables ?? []) {
    if (vv.type !== 'sizeInfo') continue;
    const sizes = [vv.maxSize, vv.minSize, ...(vv.stops ?? []).map((s) => s.size)].filter(
      (v): v is number => typeof v === 'number',
    );
    if (sizes.length > 0) reach = Math.max(reach, pointsToPixels(Math.max(...sizes), dpi) * Math.SQRT1_2 + 2);
  }
  return Math.ceil(reach);
}

/** A tile's bounds grown by `reachPx` pixels at `resolution` map units per pixel: the envelope to query. */
export function queryBounds([xmin, ymin, xmax, ymax]: Bounds, reachPx: number, resolution: number): Bounds {
  const m = reachPx * resolution;
  return [xmin - m, ymin - m, xmax + m, ymax + m];
}
