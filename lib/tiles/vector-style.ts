/**
 * The default MapLibre style (version 8) of a vector tile service built from a feature service: each
 * layer's drawingInfo renderer becomes style layers over its tile layer, one group per symbol class,
 * told apart by filters on the renderer's field (unique values: the value, or the values of up to three
 * fields joined by the delimiter; class breaks: the class's range of the, possibly normalized, value).
 * Simple marker symbols are circles (MapLibre draws other marker shapes only from sprites, which this
 * style has none of), lines keep width and dash style, fills their color and outline. Sizes are points
 * converted to pixels at 96 DPI; colors carry their alpha and the layer's transparency.
 */
import type {
  ClassBreaksRenderer,
  DrawingInfo,
  EsriColor,
  EsriSymbol,
  SimpleLineSymbol,
  UniqueValueRenderer,
} from '../render/types.js';

export interface StyleLayerSource {
  /** The tile layer name (source-layer). */
  name: string;
  drawingInfo: DrawingInfo | null;
}

export interface StyleSource {
  /** Absolute tile URL template ending in tile/{z}/{y}/{x}.pbf. */
  tiles: string;
  minzoom: number;
  maxzoom: number;
}

type Expression = unknown[];
export type StyleLayer = Record<string, unknown>;

const PX_PER_PT = 96 / 72;
const round = (n: number) => Math.round(n * 1000) / 1000;

function cssColor(c: EsriColor | undefined): { color: string; opacity: number } | undefined {
  if (!c || c.length < 3) return undefined;
  const a = c.length > 3 ? c[3] / 255 : 1;
  return { color: `rgb(${c[0]}, ${c[1]}, ${c[2]})`, opacity: a };
}

const DASHES: Record<string, number[]> = {
  esriSLSDash: [4, 3],
  esriSLSDot: [1, 3],
  esriSLSDashDot: [4, 3, 1, 3],
  esriSLSDashDotDot: [4, 3, 1, 3, 1, 3],
  esriSLSLongDash: [8, 3],
  esriSLSShortDash: [2, 2],
  esriSLSShortDot: [1, 1],
};

function lineLayer(id: string, s: SimpleLineSymbol, opacity: number): StyleLayer | undefined {
  const c = cssColor(s.color);
  if (!c || s.style === 'esriSLSNull' || (s.width ?? 1) <= 0) return undefined;
  const paint: Record<string, unknown> = {
    'line-color': c.color,
    'line-opacity': round(c.opacity * opacity),
    'line-width': round((s.width ?? 0.75) * PX_PER_PT),
  };
  const dash = DASHES[s.style ?? ''];
  if (dash) paint['line-dasharray'] = dash;
  return {
    id,
    type: 'line',
    layout: { 'line-cap': s.cap ?? 'round', 'line-join': s.join ?? 'round' },
    paint,
  };
}

/** The style layers drawing one symbol. */
function symbolLayers(id: string, symbol: EsriSymbol | null | undefined, opacity: number): StyleLayer[] {
  if (!symbol) return [];
  switch (symbol.type) {
    case 'esriSMS': {
      const fill = cssColor(symbol.color) ?? { color: 'rgb(0, 0, 0)', opacity: 0 };
      const outline = symbol.outline ? cssColor(symbol.outline.color) : undefined;
      const paint: Record<string, unknown> = {
        'circle-radius': round(((symbol.size ?? 8) * PX_PER_PT) / 2),
        'circle-color': fill.color,
        'circle-opacity': round(fill.opacity * opacity),
      };
      if (outline && symbol.outline) {
        paint['circle-stroke-color'] = outline.color;
        paint['circle-stroke-opacity'] = round(outline.opacity * opacity);
        paint['circle-stroke-width'] = round((symbol.outline.width ?? 0.75) * PX_PER_PT);
      }
      return [{ id, type: 'circle', paint }];
    }
    case 'esriPMS':
      // A picture needs a sprite; its footprint is shown as a grey circle of the picture's size.
      return [
        {
          id,
          type: 'circle',
          paint: {
            'circle-radius': round(((symbol.width ?? 16) * PX_PER_PT) / 2),
            'circle-color': 'rgb(128, 128, 128)',
            'circle-opacity': round(opacity),
          },
        },
      ];
    case 'esriSLS': {
      const l = lineLayer(id, symbol, opacity);
      return l ? [l] : [];
    }
    case 'esriSFS':
    case 'esriPFS': {
      const out: StyleLayer[] = [];
      const fill = symbol.type === 'esriSFS' ? cssColor(symbol.color) : undefined;
      if (fill && symbol.type === 'esriSFS' && symbol.style !== 'esriSFSNull') {
        out.push({
          id,
          type: 'fill',
          paint: { 'fill-color': fill.color, 'fill-opacity': round(fill.opacity * opacity) },
        });
      }
      const outline = symbol.outline && lineLayer(`${id}-outline`, symbol.outline, opacity);
      if (outline) out.push(outline);
      return out;
    }
    default:
      return [];
  }
}

const fieldValue = (field: string): Expression => ['get', field];

function uniqueKey(r: UniqueValueRenderer): Expression {
  const fields = [r.field1, r.field2, r.field3].filter((f): f is string => !!f);
  if (fields.length === 1) return ['to-string', fieldValue(fields[0])];
  const parts: unknown[] = [];
  fields.forEach((f, i) => {
    if (i > 0) parts.push(r.fieldDelimiter ?? ',');
    parts.push(['to-string', fieldValue(f)]);
  });
  return ['concat', ...parts];
}

function uniqueClasses(r: UniqueValueRenderer) {
  if (r.uniqueValueGroups?.length) {
    const delimiter = r.fieldDelimiter ?? ',';
    return r.uniqueValueGroups.flatMap((g) =>
      g.classes.map((c) => ({
        symbol: c.symbol,
        values: c.values.map((v) => v.map((x) => (x === null ? '' : String(x))).join(delimiter)),
      })),
    );
  }
  return (r.uniqueValueInfos ?? []).map((i) => ({
    symbol: i.symbol,
    values: [i.value === null ? '' : String(i.value)],
  }));
}

function classValue(r: ClassBreaksRenderer): Expression {
  const v: Expression = ['to-number', fieldValue(r.field), 0];
  switch (r.normalizationType) {
    case 'esriNormalizeByField':
      return r.normalizationField ? ['/', v, ['to-number', fieldValue(r.normalizationField), 1]] : v;
    case 'esriNormalizeByLog':
      return ['log10', ['max', v, 1e-12]];
    case 'esriNormalizeByPercentOfTotal':
      return r.normalizationTotal ? ['*', ['/', v, r.normalizationTotal], 100] : v;
    default:
      return v;
  }
}

/** The style layers of one tile layer, bottom first. */
export function rendererStyleLayers(layer: StyleLayerSource, idPrefix: string): StyleLayer[] {
  const renderer = layer.drawingInfo?.renderer;
  const opacity = 1 - Math.min(100, Math.max(0, layer.drawingInfo?.transparency ?? 0)) / 100;
  const tag = (l: StyleLayer, filter?: Expression): StyleLayer => ({
    ...l,
    source: 'esri',
    'source-layer': layer.name,
    ...(filter ? { filter } : {}),
  });
  if (!renderer) return [];
  if (renderer.type === 'simple') {
    return symbolLayers(`${idPrefix}`, renderer.symbol, opacity).map((l) => tag(l));
  }
  if (renderer.type === 'uniqueValue') {
    const key = uniqueKey(renderer);
    const classes = uniqueClasses(renderer);
    const all = classes.flatMap((c) => c.values);
    const out = classes.flatMap((c, i) =>
      symbolLayers(`${idPrefix}-${i}`, c.symbol, opacity).map((l) =>
        tag(l, ['in', key, ['literal', c.values]]),
      ),
    );
    const others = symbolLayers(`${idPrefix}-other`, renderer.defaultSymbol, opacity).map((l) =>
      tag(l, ['!', ['in', key, ['literal', all]]]),
    );
    return [...others, ...out];
  }
  const value = classValue(renderer);
  const ranges: Expression[] = [];
  let lower: number | undefined = renderer.minValue;
  renderer.classBreakInfos.forEach((b, i) => {
    const min = b.classMinValue ?? lower;
    const high: Expression = ['<=', value, b.classMaxValue];
    if (min === undefined) ranges.push(high);
    else ranges.push(['all', i === 0 ? ['>=', value, min] : ['>', value, min], high]);
    lower = b.classMaxValue;
  });
  const out = renderer.classBreakInfos.flatMap((b, i) =>
    symbolLayers(`${idPrefix}-${i}`, b.symbol, opacity).map((l) => tag(l, ranges[i])),
  );
  const others = symbolLayers(`${idPrefix}-other`, renderer.defaultSymbol, opacity).map((l) =>
    tag(l, ['!', ['any', ...ranges]]),
  );
  return [...others, ...out];
}

/** The whole style: one vector source and the layers of every tile layer in drawing order. */
export function vectorTileStyle(
  layers: readonly StyleLayerSource[],
  source: StyleSource,
  name: string,
): Record<string, unknown> {
  return {
    version: 8,
    name,
    sources: {
      esri: { type: 'vector', tiles: [source.tiles], minzoom: source.minzoom, maxzoom: source.maxzoom },
    },
    layers: layers.flatMap((l, i) => rendererStyleLayers(l, `${l.name}-${i}`)),
  };
}
