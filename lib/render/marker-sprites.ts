import { Canvas } from './canvas.js';
import type { DrawContext } from './draw-context.js';
import { drawMarker, markerReach } from './draw-marker.js';
import { Rasterizer } from './rasterizer.js';
import type { PictureMarkerSymbol, RgbaImage, SimpleMarkerSymbol } from './types.js';

type MarkerSymbol = SimpleMarkerSymbol | PictureMarkerSymbol;

/** Sub-pixel positions per axis a sprite is prepared for (quarter pixels: at most 1/8 px off). */
const STEPS = 4;
/** Beyond this many distinct symbol objects (e.g. per-feature sizes) markers are drawn directly. */
const MAX_SYMBOLS = 256;

interface SpriteSet {
  size: number;
  center: number;
  variants: (Canvas | undefined)[];
}

/**
 * Markers drawn once per symbol and sub-pixel phase, then stamped: a tile of 200 identical dots
 * rasterizes 16 sprites at most instead of 200 circles. Stamping composites the finished marker
 * (fill and outline) source-over, which gives the same pixels as drawing its parts in place.
 * One cache can serve many tiles of the same layer and DPI.
 */
export class MarkerSpriteCache {
  private readonly sets = new Map<MarkerSymbol, SpriteSet>();
  readonly dpi: number;
  private readonly pictures?: ReadonlyMap<string, RgbaImage>;

  constructor(dpi: number, pictures?: ReadonlyMap<string, RgbaImage>) {
    this.dpi = dpi;
    this.pictures = pictures;
  }

  /** Stamps the marker centred at pixel (x, y); returns false when the caller should draw it directly. */
  stamp(canvas: Canvas, symbol: MarkerSymbol, x: number, y: number, opacity: number): boolean {
    const set = this.setFor(symbol);
    if (!set) return false;
    let ix = Math.floor(x);
    let iy = Math.floor(y);
    let qx = Math.round((x - ix) * STEPS);
    let qy = Math.round((y - iy) * STEPS);
    if (qx === STEPS) [ix, qx] = [ix + 1, 0];
    if (qy === STEPS) [iy, qy] = [iy + 1, 0];
    const variant = qy * STEPS + qx;
    let sprite = set.variants[variant];
    if (!sprite) {
      sprite = this.draw(symbol, set, qx / STEPS, qy / STEPS);
      set.variants[variant] = sprite;
    }
    blit(canvas, sprite, ix - set.center, iy - set.center, opacity);
    return true;
  }

  private setFor(symbol: MarkerSymbol): SpriteSet | undefined {
    let set = this.sets.get(symbol);
    if (set) return set;
    if (this.sets.size >= MAX_SYMBOLS) return undefined;
    const reach = Math.ceil(markerReach(symbol, this.dpi));
    const size = 2 * reach + 2;
    set = { size, center: reach, variants: [] };
    this.sets.set(symbol, set);
    return set;
  }

  private draw(symbol: MarkerSymbol, set: SpriteSet, fx: number, fy: number): Canvas {
    const canvas = new Canvas(set.size, set.size);
    const ctx: DrawContext = {
      canvas,
      raster: new Rasterizer(set.size, set.size),
      dpi: this.dpi,
      opacity: 1,
      clip: { xmin: 0, ymin: 0, xmax: set.size, ymax: set.size },
      fillRule: 'nonzero',
      pictures: this.pictures,
    };
    drawMarker(ctx, symbol, set.center + fx, set.center + fy);
    return canvas;
  }
}

/** True where a pixel's word holds its alpha in the top byte (little-endian), as blit's fast path reads it. */
const ALPHA_IN_TOP_BYTE = new Uint8Array(new Uint32Array([0xff000000]).buffer)[3] === 0xff;

/** a / 255 for every byte a: the same doubles the division gives, without dividing per pixel. */
const UNIT_ALPHA = Float64Array.from({ length: 256 }, (_, a) => a / 255);

/**
 * Per sprite row, the first and one past the last column with a painted pixel (0, 0 for an empty row),
 * so stamping skips a marker's transparent corners. Made once per sprite.
 */
const spritePaintedSpans = new WeakMap<Canvas, Int32Array>();

function paintedSpans(sprite: Canvas, words: Uint32Array): Int32Array {
  let spans = spritePaintedSpans.get(sprite);
  if (spans) return spans;
  spans = new Int32Array(sprite.height * 2);
  for (let y = 0; y < sprite.height; y++) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < sprite.width; x++) {
      if (words[y * sprite.width + x] >>> 24 === 0) continue;
      if (first < 0) first = x;
      last = x;
    }
    if (first >= 0) {
      spans[2 * y] = first;
      spans[2 * y + 1] = last + 1;
    }
  }
  spritePaintedSpans.set(sprite, spans);
  return spans;
}

/**
 * Source-over of a sprite pixel over an opaque pixel, by table: for a sprite pixel's alpha `a` and one
 * colour channel `c`, the 256 results for every value of the channel under it, computed once with
 * blit's own arithmetic (the same doubles in the same order, so the same bytes). Dense low levels are
 * mostly such blends: an antialiased marker edge over markers drawn before (on the tile bench, 9.5 of
 * the 23.5 million pixels a build stamps). A table is a slot of 256 bytes in `overOpaque`, made the
 * first time its alpha and channel value are met (a thread meets a few hundred; the buffer starts at 16
 * and doubles as needed).
 */
let overOpaque = new Uint8Array(256 * 16);
const overOpaqueSlot = new Int32Array(256 * 256).fill(-1);
let overOpaqueSlots = 0;
/** round(outA × 255) of source-over at sprite alpha a over an opaque pixel. */
const OVER_OPAQUE_ALPHA = Uint8Array.from({ length: 256 }, (_, a) => {
  const alpha = UNIT_ALPHA[a];
  return Math.round((alpha + UNIT_ALPHA[255] * (1 - alpha)) * 255);
});

/** The offset in `overOpaque` of the table for sprite alpha `a` (1–254) and channel value `c`. */
function overOpaqueTable(a: number, c: number): number {
  const key = (a << 8) | c;
  const known = overOpaqueSlot[key];
  if (known >= 0) return known << 8;
  const slot = overOpaqueSlots++;
  if ((slot + 1) << 8 > overOpaque.length) {
    const grown = new Uint8Array(overOpaque.length * 2);
    grown.set(overOpaque);
    overOpaque = grown;
  }
  const alpha = UNIT_ALPHA[a];
  const keep = UNIT_ALPHA[255] * (1 - alpha);
  const inv = 1 / (alpha + keep);
  for (let w = 0; w < 256; w++) overOpaque[(slot << 8) | w] = Math.round((c * alpha + w * keep) * inv);
  overOpaqueSlot[key] = slot;
  return slot << 8;
}

/**
 * Per sprite pixel whose alpha is neither 0 nor 255, the offsets of its red, green and blue tables in
 * `overOpaque` (three per pixel; other pixels' are unused). Made once per sprite.
 */
const spriteOverOpaque = new WeakMap<Canvas, Int32Array>();

function overOpaqueTables(sprite: Canvas, words: Uint32Array): Int32Array {
  let tables = spriteOverOpaque.get(sprite);
  if (tables) return tables;
  tables = new Int32Array(words.length * 3);
  for (let i = 0; i < words.length; i++) {
    const v = words[i];
    const a = v >>> 24;
    if (a === 0 || a === 255) continue;
    tables[3 * i] = overOpaqueTable(a, v & 0xff);
    tables[3 * i + 1] = overOpaqueTable(a, (v >>> 8) & 0xff);
    tables[3 * i + 2] = overOpaqueTable(a, (v >>> 16) & 0xff);
  }
  spriteOverOpaque.set(sprite, tables);
  return tables;
}

function blit(canvas: Canvas, sprite: Canvas, left: number, top: number, opacity: number): void {
  const x0 = Math.max(0, -left);
  const y0 = Math.max(0, -top);
  const x1 = Math.min(sprite.width, canvas.width - left);
  const y1 = Math.min(sprite.height, canvas.height - top);
  const dst = canvas.words;
  const from = sprite.words;
  if (opacity === 1 && dst && from && ALPHA_IN_TOP_BYTE) {
    // Whole pixels where source-over gives the source unchanged: an opaque sprite pixel, or any sprite
    // pixel over a transparent one (blend writes its colour and round((a / 255) * 255) = a). Pixels over
    // earlier paint are blended on their words with Canvas.blend's arithmetic, operation for operation,
    // so the pixels are exactly the ones it gives (dense low-zoom tiles are mostly such blends).
    const spans = paintedSpans(sprite, from);
    const tables = overOpaqueTables(sprite, from);
    // Read after the tables are made: making one may have grown the buffer.
    const lut = overOpaque;
    for (let y = y0; y < y1; y++) {
      const sx0 = Math.max(x0, spans[2 * y]);
      const sx1 = Math.min(x1, spans[2 * y + 1]);
      let s = y * sprite.width + sx0;
      let d = (top + y) * canvas.width + left + sx0;
      for (let x = sx0; x < sx1; x++, s++, d++) {
        const v = from[s];
        const a = v >>> 24;
        if (a === 0) continue;
        const w = dst[d];
        const da = w >>> 24;
        if (a === 255 || da === 0) {
          dst[d] = v;
          continue;
        }
        if (da === 255) {
          const t = 3 * s;
          dst[d] =
            ((OVER_OPAQUE_ALPHA[a] << 24) |
              (lut[tables[t + 2] | ((w >>> 16) & 0xff)] << 16) |
              (lut[tables[t + 1] | ((w >>> 8) & 0xff)] << 8) |
              lut[tables[t] | (w & 0xff)]) >>>
            0;
          continue;
        }
        const alpha = UNIT_ALPHA[a];
        const keep = UNIT_ALPHA[da] * (1 - alpha);
        const outA = alpha + keep;
        const inv = 1 / outA;
        const r = Math.round(((v & 0xff) * alpha + (w & 0xff) * keep) * inv);
        const g = Math.round((((v >>> 8) & 0xff) * alpha + ((w >>> 8) & 0xff) * keep) * inv);
        const b = Math.round((((v >>> 16) & 0xff) * alpha + ((w >>> 16) & 0xff) * keep) * inv);
        dst[d] = ((Math.round(outA * 255) << 24) | (b << 16) | (g << 8) | r) >>> 0;
      }
    }
    return;
  }
  const src = sprite.data;
  for (let y = y0; y < y1; y++) {
    let s = (y * sprite.width + x0) * 4;
    let d = (top + y) * canvas.width + left + x0;
    for (let x = x0; x < x1; x++, s += 4, d++) {
      const a = src[s + 3];
      if (a !== 0) canvas.blend(d, src[s], src[s + 1], src[s + 2], (a / 255) * opacity);
    }
  }
}
