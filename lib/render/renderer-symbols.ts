import type { ClassBreaksRenderer, EsriSymbol, FeatureRenderer, UniqueValueRenderer } from './types.js';

/**
 * Which symbol a renderer gives a feature. Unique values match on the string form of the field
 * values joined by fieldDelimiter (null as "<Null>", as ArcGIS writes it); class breaks use
 * (classMin, classMax] with the first class closed at its minimum; features matching nothing get the
 * default symbol, or none.
 */
const uniqueCache = new WeakMap<UniqueValueRenderer, Map<string, EsriSymbol | null | undefined>>();
const breakCache = new WeakMap<
  ClassBreaksRenderer,
  { min: number; max: number; symbol?: EsriSymbol | null }[]
>();

export function rendererSymbol(
  renderer: FeatureRenderer,
  attributes: Record<string, unknown> | null | undefined,
): EsriSymbol | undefined {
  const attrs = attributes ?? {};
  if (renderer.type === 'simple') return renderer.symbol ?? undefined;
  if (renderer.type === 'uniqueValue') {
    const table = uniqueTable(renderer);
    const key = uniqueKey(renderer, attrs);
    const symbol = table.has(key) ? table.get(key) : renderer.defaultSymbol;
    return symbol ?? undefined;
  }
  if (renderer.type === 'classBreaks') {
    const value = classValue(renderer, attrs);
    if (value === undefined) return renderer.defaultSymbol ?? undefined;
    const breaks = classBreaks(renderer);
    for (let i = 0; i < breaks.length; i++) {
      const b = breaks[i];
      if (value <= b.max && (value > b.min || (i === 0 && value >= b.min))) return b.symbol ?? undefined;
    }
    return renderer.defaultSymbol ?? undefined;
  }
  return undefined;
}

const text = (v: unknown): string => (v === null || v === undefined ? '<Null>' : String(v));

function uniqueKey(r: UniqueValueRenderer, attrs: Record<string, unknown>): string {
  const parts = [text(attrs[r.field1])];
  if (r.field2) parts.push(text(attrs[r.field2]));
  if (r.field3) parts.push(text(attrs[r.field3]));
  return parts.join(r.fieldDelimiter ?? ',');
}

function uniqueTable(r: UniqueValueRenderer): Map<string, EsriSymbol | null | undefined> {
  let table = uniqueCache.get(r);
  if (table) return table;
  table = new Map();
  const delimiter = r.fieldDelimiter ?? ',';
  for (const info of r.uniqueValueInfos ?? [])
    if (!table.has(text(info.value))) table.set(text(info.value), info.symbol);
  for (const group of r.uniqueValueGroups ?? []) {
    for (const cls of group.classes) {
      for (const tuple of cls.values) {
        const key = tuple.map(text).join(delimiter);
        if (!table.has(key)) table.set(key, cls.symbol);
      }
    }
  }
  uniqueCache.set(r, table);
  return table;
}

function classBreaks(r: ClassBreaksRenderer): { min: number; max: number; symbol?: EsriSymbol | null }[] {
  let breaks = breakCache.get(r);
  if (breaks) return breaks;
  let previous = r.minValue ?? Number.NEGATIVE_INFINITY;
  breaks = [...r.classBreakInfos]
    .sort((a, b) => a.classMaxValue - b.classMaxValue)
    .map((info) => {
      const min = info.classMinValue ?? previous;
      previous = info.classMaxValue;
      return { min, max: info.classMaxValue, symbol: info.symbol };
    });
  breakCache.set(r, breaks);
  return breaks;
}

/** The (normalized) numeric value a class-breaks renderer classifies, or undefined when it has none. */
export function classValue(r: ClassBreaksRenderer, attrs: Record<string, unknown>): number | undefined {
  const raw = attrs[r.field];
  if (raw === null || raw === undefined || raw === '') return undefined;
  let v = Number(raw);
  if (!Number.isFinite(v)) return undefined;
  if (r.normalizationType === 'esriNormalizeByField' && r.normalizationField) {
    const by = Number(attrs[r.normalizationField]);
    if (!Number.isFinite(by) || by === 0) return undefined;
    v /= by;
  } else if (r.normalizationType === 'esriNormalizeByLog') {
    if (v <= 0) return undefined;
    v = Math.log10(v);
  } else if (r.normalizationType === 'esriNormalizeByPercentOfTotal' && r.normalizationTotal) {
    v = (v / r.normalizationTotal) * 100;
  }
  return v;
}

export interface LegendClass {
  label: string;
  description: string;
  symbol: EsriSymbol;
  /** Unique values (as strings) of the class, for unique-value renderers. */
  values?: string[];
}

/** Legend entries of a renderer in display order; the default symbol comes last when present. */
export function legendClasses(renderer: FeatureRenderer): LegendClass[] {
  const out: LegendClass[] = [];
  const push = (
    symbol: EsriSymbol | null | undefined,
    label = '',
    description = '',
    values?: string[],
  ): void => {
    if (symbol) out.push(values ? { label, description, symbol, values } : { label, description, symbol });
  };
  if (renderer.type === 'simple') push(renderer.symbol, renderer.label ?? '', renderer.description ?? '');
  if (renderer.type === 'uniqueValue') {
    for (const info of renderer.uniqueValueInfos ?? []) {
      push(info.symbol, info.label ?? text(info.value), info.description ?? '', [text(info.value)]);
    }
    for (const group of renderer.uniqueValueGroups ?? []) {
      for (const cls of group.classes) {
        const values = cls.values.map((t) => t.map(text).join(renderer.fieldDelimiter ?? ','));
        push(cls.symbol, cls.label ?? values.join(', '), cls.description ?? '', values);
      }
    }
    push(renderer.defaultSymbol, renderer.defaultLabel ?? '<all other values>');
  }
  if (renderer.type === 'classBreaks') {
    for (const b of classBreaks(renderer)) {
      const info = renderer.classBreakInfos.find((i) => i.classMaxValue === b.max && i.symbol === b.symbol);
      push(
        b.symbol,
        info?.label ?? `${Number.isFinite(b.min) ? b.min : ''} - ${b.max}`,
        info?.description ?? '',
      );
    }
    push(renderer.defaultSymbol, renderer.defaultLabel ?? '<all other values>');
  }
  return out;
}
