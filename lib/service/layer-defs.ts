/**
 * The `layerDefs` parameter of a feature service's query: which layers to query, each with its own
 * where clause and outFields. ArcGIS accepts three spellings, all read here:
 * - simple: `0:POP > 1000;2:STATE = 'Kansas'` (a `;` inside a quoted literal does not split);
 * - a JSON object: `{"0": "POP > 1000", "2": "STATE = 'Kansas'"}`;
 * - a JSON array: `[{"layerId": 0, "where": "POP > 1000", "outFields": "NAME,POP"}]`.
 */
import { badRequest, type GeoError } from '../errors.js';

export interface LayerDef {
  layerId: number;
  where?: string;
  outFields?: string;
}

const invalid = (problem: string): GeoError =>
  badRequest('Invalid or missing input parameters.', [`'layerDefs' is invalid: ${problem}.`]);

function layerIdOf(value: unknown): number {
  const n = typeof value === 'string' && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 999)
    throw invalid(`'${String(value)}' is not a layer id`);
  return n;
}

function optionalText(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

/** Splits the simple form on `;` outside single-quoted literals. */
function splitSimple(text: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'") quoted = !quoted;
    else if (ch === ';' && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.filter((p) => p.trim() !== '');
}

function fromJson(value: unknown): LayerDef[] {
  if (Array.isArray(value)) {
    return value.map((entry) => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
        throw invalid('each entry of the array must be an object with layerId');
      const e = entry as Record<string, unknown>;
      for (const key of Object.keys(e)) {
        if (!['layerid', 'where', 'outfields'].includes(key.toLowerCase()))
          throw invalid(`'${key}' is not supported in a layer definition (layerId, where, outFields)`);
      }
      const get = (k: string) => e[Object.keys(e).find((x) => x.toLowerCase() === k) ?? ''];
      if (get('layerid') === undefined) throw invalid('an entry has no layerId');
      return {
        layerId: layerIdOf(get('layerid')),
        where: optionalText('where', get('where')),
        outFields: optionalText('outFields', get('outfields')),
      };
    });
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value as Record<string, unknown>).map(([id, where]) => ({
      layerId: layerIdOf(id),
      where: optionalText('where', where),
    }));
  }
  throw invalid('expected a JSON array or object, or the form 0:where;1:where');
}

/** The layer definitions of a request, in the order given; a layer named twice is refused. */
export function parseLayerDefs(raw: string): LayerDef[] {
  const text = raw.trim();
  let defs: LayerDef[];
  if (text.startsWith('[') || text.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalid('the value is not valid JSON');
    }
    defs = fromJson(json);
  } else {
    defs = splitSimple(text).map((part) => {
      const colon = part.indexOf(':');
      if (colon < 0) throw invalid(`'${part.trim()}' is not of the form layerId:where`);
      return { layerId: layerIdOf(part.slice(0, colon)), where: part.slice(colon + 1).trim() };
    });
  }
  if (defs.length === 0) throw invalid('no layer is named');
  const seen = new Set<number>();
  for (const d of defs) {
    if (seen.has(d.layerId)) throw invalid(`layer ${d.layerId} is named twice`);
    seen.add(d.layerId);
  }
  return defs;
}
