import type { Canvas } from './canvas.js';
import type { MarkerSpriteCache } from './marker-sprites.js';
import type { FillRule, Rasterizer } from './rasterizer.js';
import type { ClipBox } from './stroke.js';
import type { PictureFillSymbol, PictureMarkerSymbol, RgbaImage } from './types.js';

/** Everything symbol drawing needs, created once per rendered image. */
export interface DrawContext {
  canvas: Canvas;
  raster: Rasterizer;
  dpi: number;
  /** Layer opacity 0–1 (from drawingInfo.transparency). */
  opacity: number;
  /** The canvas box; geometry further out than a symbol's reach is skipped. */
  clip: ClipBox;
  fillRule: FillRule;
  pictures?: ReadonlyMap<string, RgbaImage>;
  /** Stamps repeated markers instead of rasterizing each one. */
  sprites?: MarkerSpriteCache;
}

/** The key under which a picture symbol's decoded image is looked up: its imageData, else its url. */
export function pictureKey(symbol: PictureMarkerSymbol | PictureFillSymbol): string {
  return symbol.imageData || symbol.url || '';
}

/** A flat [x0, y0, x1, y1, …] pixel path or ring with its point count. */
export interface PixelPath {
  xy: Float64Array;
  count: number;
}
