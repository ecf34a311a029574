import type { EsriColor, EsriSymbol, VisualVariable } from './types.js';

/**
 * Size, color and rotation visual variables applied to a feature's symbol. Returns the symbol itself
 * when nothing applies, otherwise a shallow copy (the renderer's symbols are never mutated).
 */
export function applyVisualVariables(
  symbol: EsriSymbol,
  variables: readonly VisualVariable[] | undefined,
  attributes: Record<string, unknown> | null | undefined,
): EsriSymbol {
  if (!variables || variables.length === 0) return symbol;
  const attrs = attributes ?? {};
  let out: EsriSymbol = symbol;
  for (const vv of variables) {
    const value = fieldValue(vv, attrs);
    if (value === undefined) continue;
    if (vv.type === 'sizeInfo') {
      const size = sizeFor(vv, value);
      if (size !== undefined) out = withSize(out, size);
    } else if (vv.type === 'colorInfo') {
      const color = colorFor(vv, value);
      if (color && 'color' in out) out = { ...out, color } as EsriSymbol;
      else if (color && out.type === 'esriSMS') out = { ...out, color };
    } else if (vv.type === 'rotationInfo' && (out.type === 'esriSMS' || out.type === 'esriPMS')) {
      // Geographic rotation is clockwise from north; symbol angles are counter-clockwise from east.
      const angle = vv.rotationType === 'arithmetic' ? value : 90 - value;
      out = { ...out, angle: (out.angle ?? 0) + angle };
    }
  }
  return out;
}

function fieldValue(vv: VisualVariable, attrs: Record<string, unknown>): number | undefined {
  if (!vv.field) return undefined;
  const raw = attrs[vv.field];
  if (raw === null || raw === undefined || raw === '') return undefined;
  let v = Number(raw);
  if (vv.normalizationField) v /= Number(attrs[vv.normalizationField]);
  return Number.isFinite(v) ? v : undefined;
}

function sizeFor(vv: VisualVariable, value: number): number | undefined {
  if (vv.stops && vv.stops.length > 0) {
    const sized = vv.stops.filter((s) => typeof s.size === 'number');
    return interpolate(
      sized.map((s) => [s.value, s.size as number]),
      value,
    );
  }
  const { minDataValue: d0, maxDataValue: d1, minSize: s0, maxSize: s1 } = vv;
  if (typeof s0 !== 'number' || typeof s1 !== 'number' || d0 === undefined || d1 === undefined)
    return undefined;
  return interpolate(
    [
      [d0, s0],
      [d1, s1],
    ],
    value,
  );
}

function colorFor(vv: VisualVariable, value: number): EsriColor | undefined {
  const stops = (vv.stops ?? []).filter((s) => Array.isArray(s.color));
  if (stops.length === 0) return undefined;
  const channels = [0, 1, 2, 3].map((c) =>
    interpolate(
      stops.map((s) => [s.value, (s.color as number[])[c] ?? 255]),
      value,
    ),
  );
  return channels.map((c) => Math.round(c ?? 0));
}

/** Piecewise-linear interpolation through sorted (x, y) stops, clamped at both ends. */
function interpolate(stops: [number, number][], x: number): number | undefined {
  if (stops.length === 0) return undefined;
  const sorted = [...stops].sort((a, b) => a[0] - b[0]);
  if (x <= sorted[0][0]) return sorted[0][1];
  const last = sorted[sorted.length - 1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < sorted.length; i++) {
    const [x1, y1] = sorted[i];
    if (x <= x1) {
      const [x0, y0] = sorted[i - 1];
      return x1 === x0 ? y1 : y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
    }
  }
  return last[1];
}

function withSize(symbol: EsriSymbol, size: number): EsriSymbol {
  if (symbol.type === 'esriSMS') return { ...symbol, size };
  if (symbol.type === 'esriSLS') return { ...symbol, width: size };
  if (symbol.type === 'esriPMS') {
    const w = symbol.width ?? size;
    const h = symbol.height ?? size;
    const k = size / Math.max(w, h, 1e-9);
    return { ...symbol, width: w * k, height: h * k };
  }
  return symbol;
}
