/**
 * The parameters of the REST MapServer's export, identify and find, one normalizer each, as ArcGIS
 * Server reads them: `bbox`/`mapExtent` as `xmin,ymin,xmax,ymax` or an envelope object, spatial
 * references as a wkid or an object, `size`/`imageDisplay` as `w,h[,dpi]`, `layers` as
 * `show|hide|include|exclude:ids` (export) or `top|visible|all[:ids]` (identify), `layerDefs` as
 * JSON `{"0":"expr"}` or `0:expr;1:expr`.
 */
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import { envelopeBounds } from '../../lib/query/normalize/geometry-json.js';
import {
  fail,
  isRecord,
  present,
  readInteger,
  readJson,
  readNumber,
} from '../../lib/query/normalize/parameter-values.js';
import {
  spatialReferenceObject,
  spatialReferenceParameter,
} from '../../lib/query/normalize/spatial-reference.js';

export const MAX_IMAGE_SIZE = 4096;

export function readEnvelope(
  name: string,
  value: string | undefined,
): { bounds: Bounds; sr: SpatialReference | null } {
  const text = present(value);
  if (text === undefined) throw fail(name, 'the extent is required');
  if (!text.startsWith('{')) {
    const n = text.split(',').map((s) => readNumber(name, s.trim()));
    if (n.length !== 4) throw fail(name, 'expected xmin,ymin,xmax,ymax');
    return { bounds: checkedBounds(name, envelopeBounds(n[0], n[1], n[2], n[3])), sr: null };
  }
  const json = readJson(name, text);
  if (!isRecord(json)) throw fail(name, 'expected an envelope object');
  const n = ['xmin', 'ymin', 'xmax', 'ymax'].map((k) => Number(json[k]));
  if (!n.every(Number.isFinite)) throw fail(name, 'the envelope needs numeric xmin, ymin, xmax and ymax');
  const sr = json.spatialReference === undefined ? null : spatialReferenceObject(name, json.spatialReference);
  return { bounds: checkedBounds(name, envelopeBounds(n[0], n[1], n[2], n[3])), sr };
}

function checkedBounds(name: string, b: Bounds): Bounds {
  if (!(b[2] > b[0] && b[3] > b[1])) throw fail(name, 'the extent is empty');
  return b;
}

export const readSpatialReference = spatialReferenceParameter;

/** `w,h` (export `size`, default 400×400) or `w,h,dpi` (identify `imageDisplay`). */
export function readImageSize(
  name: string,
  value: string | undefined,
  fallback?: { width: number; height: number },
): { width: number; height: number; dpi?: number } {
  const text = present(value);
  if (text === undefined) {
    if (fallback) return fallback;
    throw fail(name, 'expected width,height,dpi');
  }
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length < 2 || parts.length > 3) throw fail(name, 'expected width,height or width,height,dpi');
  const width = readInteger(name, parts[0], 1, MAX_IMAGE_SIZE);
  const height = readInteger(name, parts[1], 1, MAX_IMAGE_SIZE);
  return parts[2] === undefined ? { width, height } : { width, height, dpi: readDpi(name, parts[2]) };
}

export function readDpi(name: string, value: string | undefined): number {
  const text = present(value);
  if (text === undefined) return 96;
  const dpi = readNumber(name, text);
  if (dpi < 1 || dpi > 1200) throw fail(name, `${text} is outside 1..1200`);
  return dpi;
}

export type ExportFormat = 'png' | 'png8' | 'png24' | 'png32' | 'jpg';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['png', 'png8', 'png24', 'png32', 'jpg'];

export function readExportFormat(value: string | undefined): ExportFormat {
  const f = (present(value) ?? 'png').toLowerCase();
  const format = f === 'jpeg' ? 'jpg' : f;
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw fail('format', `'${value}' is not one of ${EXPORT_FORMATS.join(', ')}`);
  return format as ExportFormat;
}

/** Comma-separated layer ids, each one of `known`. */
function readLayerIds(name: string, text: string, known: readonly number[]): number[] {
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => readInteger(name, s, 0));
  const unknown = ids.find((id) => !known.includes(id));
  if (unknown !== undefined) throw fail(name, `the service has no layer ${unknown}`);
  return ids;
}

/** Export's `layers`: which of the layers draw, from their default visibility. */
export function readExportLayers(
  value: string | undefined,
  all: readonly number[],
  visibleByDefault: readonly number[],
): number[] {
  const text = present(value);
  if (text === undefined) return [...visibleByDefault];
  const m = /^(show|hide|include|exclude)\s*:(.*)$/i.exec(text);
  if (!m) throw fail('layers', 'expected show:, hide:, include: or exclude: followed by layer ids');
  const ids = readLayerIds('layers', m[2], all);
  switch (m[1].toLowerCase()) {
    case 'show':
      return all.filter((id) => ids.includes(id));
    case 'include':
      return all.filter((id) => visibleByDefault.includes(id) || ids.includes(id));
    default: // hide, exclude
      return visibleByDefault.filter((id) => !ids.includes(id));
  }
}

export type IdentifyLayerOption = 'top' | 'visible' | 'all';

/** Identify's `layers`: `top`, `visible` or `all`, optionally with `:ids` (default `top`). */
export function readIdentifyLayers(
  value: string | undefined,
  all: readonly number[],
): { option: IdentifyLayerOption; ids: number[] | undefined } {
  const text = present(value);
  if (text === undefined) return { option: 'top', ids: undefined };
  const m = /^(top|visible|all)\s*(?::(.*))?$/i.exec(text);
  if (!m) throw fail('layers', 'expected top, visible or all, optionally followed by :layer ids');
  const ids = m[2] === undefined ? undefined : readLayerIds('layers', m[2], all);
  return { option: m[1].toLowerCase() as IdentifyLayerOption, ids: ids?.length ? ids : undefined };
}

/** Find's `layers`: the ids to search (required). */
export function readFindLayers(value: string | undefined, all: readonly number[]): number[] {
  const text = present(value);
  if (text === undefined) throw fail('layers', 'name the layers to search, e.g. layers=0,1');
  return readLayerIds('layers', text.replace(/^(?:all|visible|top)\s*:/i, ''), all);
}

/** `layerDefs`: a definition expression per layer id. */
export function readLayerDefs(value: string | undefined, all: readonly number[]): Map<number, string> {
  const text = present(value);
  const defs = new Map<number, string>();
  if (text === undefined) return defs;
  const add = (key: string, expr: unknown) => {
    const id = readInteger('layerDefs', key.trim(), 0);
    if (!all.includes(id)) throw fail('layerDefs', `the service has no layer ${id}`);
    if (typeof expr !== 'string') throw fail('layerDefs', `the definition of layer ${id} is not a string`);
    if (expr.trim()) defs.set(id, expr);
  };
  if (text.startsWith('{')) {
    const json = readJson('layerDefs', text);
    if (!isRecord(json)) throw fail('layerDefs', 'expected an object of layer id to where clause');
    for (const [k, v] of Object.entries(json)) add(k, v);
  } else if (text.startsWith('[')) {
    const json = readJson('layerDefs', text);
    if (!Array.isArray(json)) throw fail('layerDefs', 'expected a list of {layerId, where}');
    for (const d of json) {
      if (!isRecord(d)) throw fail('layerDefs', 'expected a list of {layerId, where}');
      add(String(d.layerId), d.where ?? d.definitionExpression);
    }
  } else {
    for (const part of text.split(';')) {
      const i = part.indexOf(':');
      if (i < 0) throw fail('layerDefs', 'expected id:expression pairs separated by ;');
      add(part.slice(0, i), part.slice(i + 1));
    }
  }
  return defs;
}
