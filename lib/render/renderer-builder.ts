import type { ClassBreaksRenderer, EsriSymbol, UniqueValueRenderer } from './types.js';

/** Color ramps as generateRenderer takes them: algorithmic (two colors) or multipart (several in a row). */
export type ColorRamp =
  | { type: 'algorithmic'; fromColor: number[]; toColor: number[]; algorithm?: string }
  | { type: 'multipart'; colorRamps: ColorRamp[] };

/** n colors along a ramp. HSV ramps go round the hue circle the short way; other algorithms blend RGB. */
export function rampColors(ramp: ColorRamp, n: number): number[][] {
  if (n <= 0) return [];
  if (ramp.type === 'multipart') {
    const parts = ramp.colorRamps;
    if (parts.length === 0) return [];
    return Array.from({ length: n }, (_, i) => {
      const t = n === 1 ? 0 : i / (n - 1);
      const at = Math.min(parts.length - 1, Math.floor(t * parts.length));
      const local = t * parts.length - at;
      return rampColors(parts[at], 101)[Math.round(Math.min(1, local) * 100)];
    });
  }
  const hsv = ramp.algorithm === 'esriHSVAlgorithm';
  return Array.from({ length: n }, (_, i) => {
    const t = n === 1 ? 0 : i / (n - 1);
    return hsv ? mixHsv(ramp.fromColor, ramp.toColor, t) : mixRgb(ramp.fromColor, ramp.toColor, t);
  });
}

function mixRgb(a: number[], b: number[], t: number): number[] {
  return [0, 1, 2, 3].map((c) => Math.round((a[c] ?? 255) + ((b[c] ?? 255) - (a[c] ?? 255)) * t));
}

function mixHsv(a: number[], b: number[], t: number): number[] {
  const [h1, s1, v1] = toHsv(a);
  const [h2, s2, v2] = toHsv(b);
  let dh = h2 - h1;
  if (dh > 180) dh -= 360;
  if (dh < -180) dh += 360;
  const rgb = fromHsv((h1 + dh * t + 360) % 360, s1 + (s2 - s1) * t, v1 + (v2 - v1) * t);
  return [...rgb, Math.round((a[3] ?? 255) + ((b[3] ?? 255) - (a[3] ?? 255)) * t)];
}

function toHsv([r, g, b]: number[]): [number, number, number] {
  const [rr, gg, bb] = [r / 255, g / 255, b / 255];
  const max = Math.max(rr, gg, bb);
  const d = max - Math.min(rr, gg, bb);
  let h = 0;
  if (d > 0) h = max === rr ? ((gg - bb) / d) % 6 : max === gg ? (bb - rr) / d + 2 : (rr - gg) / d + 4;
  return [(h * 60 + 360) % 360, max === 0 ? 0 : d / max, max];
}

function fromHsv(h: number, s: number, v: number): number[] {
  const c = v * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = v - c;
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  return [r, g, b].map((u) => Math.round((u + m) * 255));
}

/** The base symbol in a new color (markers, lines and fills; pictures keep their image). */
export function recolor(symbol: EsriSymbol, color: number[]): EsriSymbol {
  if (symbol.type === 'esriSMS' || symbol.type === 'esriSLS' || symbol.type === 'esriSFS')
    return { ...symbol, color };
  return { ...symbol };
}

const label = (v: number): string => String(Number(v.toPrecision(12)));

export interface ClassBreaksInput {
  field: string;
  /** Data minimum (the first class starts here). */
  minValue: number;
  /** Ascending class maxima, e.g. from classify(). */
  breaks: number[];
  baseSymbol: EsriSymbol;
  colorRamp: ColorRamp;
  normalizationType?: string;
  normalizationField?: string;
  normalizationTotal?: number;
}

export function buildClassBreaksRenderer(input: ClassBreaksInput): ClassBreaksRenderer {
  const colors = rampColors(input.colorRamp, input.breaks.length);
  let from = input.minValue;
  const renderer: ClassBreaksRenderer = {
    type: 'classBreaks',
    field: input.field,
    minValue: input.minValue,
    classBreakInfos: input.breaks.map((max, i) => {
      const info = {
        classMinValue: from,
        classMaxValue: max,
        label: `${label(from)} - ${label(max)}`,
        description: '',
        symbol: recolor(input.baseSymbol, colors[i]),
      };
      from = max;
      return info;
    }),
  };
  if (input.normalizationType) renderer.normalizationType = input.normalizationType;
  if (input.normalizationField) renderer.normalizationField = input.normalizationField;
  if (input.normalizationTotal !== undefined) renderer.normalizationTotal = input.normalizationTotal;
  return renderer;
}

export interface UniqueValuesInput {
  fields: string[];
  fieldDelimiter?: string;
  /** One entry per distinct value tuple, in the order the legend should show them. */
  values: (string | number | null)[][];
  baseSymbol: EsriSymbol;
  colorRamp: ColorRamp;
  defaultSymbol?: EsriSymbol;
}

export function buildUniqueValueRenderer(input: UniqueValuesInput): UniqueValueRenderer {
  const delimiter = input.fieldDelimiter ?? ',';
  const colors = rampColors(input.colorRamp, input.values.length);
  const text = (v: string | number | null): string => (v === null ? '<Null>' : String(v));
  const renderer: UniqueValueRenderer = {
    type: 'uniqueValue',
    field1: input.fields[0],
    field2: input.fields[1] ?? null,
    field3: input.fields[2] ?? null,
    fieldDelimiter: delimiter,
    defaultSymbol: input.defaultSymbol ?? null,
    defaultLabel: input.defaultSymbol ? '<all other values>' : undefined,
    uniqueValueInfos: input.values.map((tuple, i) => {
      const value = tuple.map(text).join(delimiter);
      return { value, label: value, description: '', symbol: recolor(input.baseSymbol, colors[i]) };
    }),
  };
  return renderer;
}
