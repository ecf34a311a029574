import type { LineCap, LineJoin, StrokeStyle } from './stroke.js';
import type { EsriColor, SimpleLineSymbol } from './types.js';

/** Symbol sizes are in points (1/72 inch); pixels depend on the output DPI (96 for tiles). */
export const pointsToPixels = (points: number, dpi: number): number => (points * dpi) / 72;

/** An Esri [r,g,b,a] color as four 0–255 numbers, or undefined for "no color". */
export function rgba(color: EsriColor | undefined): [number, number, number, number] | undefined {
  if (!Array.isArray(color) || color.length < 3) return undefined;
  const c = (v: unknown): number => {
    const n = Number(v);
    return Number.isFinite(n) ? Math.min(255, Math.max(0, Math.round(n))) : 0;
  };
  return [c(color[0]), c(color[1]), c(color[2]), color.length > 3 ? c(color[3]) : 255];
}

/** Dash patterns in multiples of the line width (as ArcGIS web clients draw them). */
const DASHES: Record<string, number[]> = {
  esriSLSDash: [4, 3],
  esriSLSDot: [1, 3],
  esriSLSDashDot: [4, 3, 1, 3],
  esriSLSDashDotDot: [4, 3, 1, 3, 1, 3],
  esriSLSLongDash: [8, 3],
  esriSLSLongDashDot: [8, 3, 1, 3],
  esriSLSShortDash: [4, 1],
  esriSLSShortDashDot: [4, 1, 1, 1],
  esriSLSShortDashDotDot: [4, 1, 1, 1, 1, 1],
  esriSLSShortDot: [1, 1],
};

export interface ResolvedLine {
  color: [number, number, number, number];
  stroke: StrokeStyle;
}

/** A line symbol as pixels and a color, or undefined when it draws nothing (null style, no color, width 0). */
export function resolveLine(
  symbol: SimpleLineSymbol | null | undefined,
  dpi: number,
): ResolvedLine | undefined {
  if (!symbol) return undefined;
  const style = symbol.style ?? 'esriSLSSolid';
  if (style === 'esriSLSNull') return undefined;
  const color = rgba(symbol.color);
  const width = pointsToPixels(symbol.width ?? 0.75, dpi);
  if (!color || color[3] === 0 || !(width > 0)) return undefined;
  const pattern = DASHES[style];
  const cap: LineCap = symbol.cap ?? (pattern ? 'butt' : 'round');
  const join: LineJoin = symbol.join ?? 'round';
  const unit = Math.max(width, 1);
  return {
    color,
    stroke: {
      width,
      cap,
      join,
      miterLimit: symbol.miterLimit ?? 2,
      dash: pattern?.map((v) => v * unit),
    },
  };
}

const mask = (rows: string[]): Uint8Array => Uint8Array.from(rows.join(''), (ch) => (ch === '#' ? 1 : 0));

/** 8×8 on/off masks for the hatched esriSFS styles (solid fills have none). */
export const HATCH_MASKS: Record<string, Uint8Array> = {
  esriSFSHorizontal: mask(['########', ...Array(7).fill('........')]),
  esriSFSVertical: mask(Array(8).fill('#.......')),
  esriSFSCross: mask(['########', ...Array(7).fill('#.......')]),
  esriSFSForwardDiagonal: mask(
    Array.from({ length: 8 }, (_, y) => '........'.replace(/./g, (_c, x) => ((x + y) % 8 === 7 ? '#' : '.'))),
  ),
  esriSFSBackwardDiagonal: mask(
    Array.from({ length: 8 }, (_, y) => '........'.replace(/./g, (_c, x) => (x === y ? '#' : '.'))),
  ),
  esriSFSDiagonalCross: mask(
    Array.from({ length: 8 }, (_, y) =>
      '........'.replace(/./g, (_c, x) => (x === y || (x + y) % 8 === 7 ? '#' : '.')),
    ),
  ),
};
