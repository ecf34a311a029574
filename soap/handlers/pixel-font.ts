/**
 * A 3×5 pixel font for scale bar labels: digits, the decimal point and the letters of unit
 * abbreviations (m, km, mi, ft, yd, in, cm, mm, nmi, dd). Each glyph is five rows of three bits.
 */
import type { Canvas } from '../../lib/render/canvas.js';

const GLYPHS: Record<string, readonly number[]> = {
  '0': [0b111, 0b101, 0b101, 0b101, 0b111],
  '1': [0b010, 0b110, 0b010, 0b010, 0b111],
  '2': [0b111, 0b001, 0b111, 0b100, 0b111],
  '3': [0b111, 0b001, 0b011, 0b001, 0b111],
  '4': [0b101, 0b101, 0b111, 0b001, 0b001],
  '5': [0b111, 0b100, 0b111, 0b001, 0b111],
  '6': [0b111, 0b100, 0b111, 0b101, 0b111],
  '7': [0b111, 0b001, 0b010, 0b010, 0b010],
  '8': [0b111, 0b101, 0b111, 0b101, 0b111],
  '9': [0b111, 0b101, 0b111, 0b001, 0b111],
  '.': [0b000, 0b000, 0b000, 0b000, 0b010],
  m: [0b000, 0b000, 0b111, 0b111, 0b101],
  k: [0b100, 0b101, 0b110, 0b101, 0b101],
  i: [0b010, 0b000, 0b010, 0b010, 0b010],
  f: [0b011, 0b100, 0b110, 0b100, 0b100],
  t: [0b010, 0b111, 0b010, 0b010, 0b011],
  y: [0b000, 0b101, 0b111, 0b001, 0b110],
  d: [0b001, 0b001, 0b111, 0b101, 0b111],
  n: [0b000, 0b000, 0b110, 0b101, 0b101],
  c: [0b000, 0b000, 0b111, 0b100, 0b111],
  ' ': [0, 0, 0, 0, 0],
};

/** Width in pixels of `text` at `size` pixels per font dot. */
export const textWidth = (text: string, size: number): number => Math.max(0, text.length * 4 - 1) * size;
export const TEXT_HEIGHT = 5;

/** Draws `text` with its top-left corner at (x, y), each font dot a size×size square. */
export function drawText(
  canvas: Canvas,
  text: string,
  x: number,
  y: number,
  size: number,
  color: readonly [number, number, number],
): void {
  [...text].forEach((ch, i) => {
    const rows = GLYPHS[ch] ?? GLYPHS[' '];
    rows.forEach((bits, row) => {
      for (let col = 0; col < 3; col++) {
        if (!(bits & (0b100 >> col))) continue;
        fillRect(canvas, x + (i * 4 + col) * size, y + row * size, size, size, color);
      }
    });
  });
}

export function fillRect(
  canvas: Canvas,
  x: number,
  y: number,
  w: number,
  h: number,
  [r, g, b]: readonly [number, number, number],
  alpha = 1,
): void {
  const x0 = Math.max(0, Math.round(x));
  const y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(canvas.width, Math.round(x + w));
  const y1 = Math.min(canvas.height, Math.round(y + h));
  for (let py = y0; py < y1; py++)
    for (let px = x0; px < x1; px++) canvas.blend(py * canvas.width + px, r, g, b, alpha);
}
