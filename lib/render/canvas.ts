import { badRequest } from '../errors.js';

/**
 * An RGBA pixel buffer in straight (non-premultiplied) alpha, rows top to bottom: exactly what sharp
 * takes as `raw: { width, height, channels: 4 }` input. Painting is source-over compositing.
 */
export class Canvas {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
  private wordView: Uint32Array | null | undefined;

  constructor(width: number, height: number, data?: Uint8Array) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
      throw badRequest(`Bad image size ${width}×${height}.`);
    }
    if (data && data.length !== width * height * 4) throw badRequest('Image buffer does not match its size.');
    this.width = width;
    this.height = height;
    this.data = data ?? new Uint8Array(width * height * 4);
  }

  /**
   * The pixels as one 32-bit word each (in the platform's byte order), for copying whole pixels; null when
   * the buffer does not start on a 4-byte boundary.
   */
  get words(): Uint32Array | null {
    if (this.wordView === undefined) {
      const d = this.data;
      this.wordView = d.byteOffset % 4 === 0 ? new Uint32Array(d.buffer, d.byteOffset, d.length / 4) : null;
    }
    return this.wordView;
  }

  /** Source-over of color (r, g, b) at coverage-weighted alpha `a` (0–1) onto pixel `p`. */
  blend(p: number, r: number, g: number, b: number, a: number): void {
    if (a <= 0) return;
    const d = this.data;
    const i = p * 4;
    const da = d[i + 3];
    if (a >= 1 || da === 0) {
      d[i] = r;
      d[i + 1] = g;
      d[i + 2] = b;
      d[i + 3] = a >= 1 ? 255 : Math.round(a * 255);
      return;
    }
    const dst = da / 255;
    const keep = dst * (1 - a);
    const outA = a + keep;
    const inv = 1 / outA;
    d[i] = Math.round((r * a + d[i] * keep) * inv);
    d[i + 1] = Math.round((g * a + d[i + 1] * keep) * inv);
    d[i + 2] = Math.round((b * a + d[i + 2] * keep) * inv);
    d[i + 3] = Math.round(outA * 255);
  }
}

/** Composites a whole layer onto a canvas of the same size at an opacity (0–1). */
export function compositeLayer(target: Canvas, layer: Canvas, opacity: number): void {
  const src = layer.data;
  for (let p = 0, i = 3; i < src.length; p++, i += 4) {
    const a = src[i];
    if (a !== 0) target.blend(p, src[i - 3], src[i - 2], src[i - 1], (a / 255) * opacity);
  }
}
