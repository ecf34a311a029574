import type { SpatialReference } from '../../geometry/types.js';
import { fail, isRecord, present, readJson } from './parameter-values.js';

/**
 * `inSR` and `outSR`: a well-known id (`4326`), or JSON `{"wkid":102100,"latestWkid":3857}` or
 * `{"wkt":"..."}`. Kept as given: projecting is the projection module's work, not the parser's.
 */
export function spatialReferenceParameter(name: string, value: string | undefined): SpatialReference | null {
  const text = present(value);
  if (text === undefined) return null;
  if (/^\d+$/.test(text)) return { wkid: wkid(name, Number(text)) };
  if (!text.startsWith('{'))
    throw fail(name, `'${text}' is not a well-known id or a spatial reference object`);
  return spatialReferenceObject(name, readJson(name, text));
}

export function spatialReferenceObject(name: string, v: unknown): SpatialReference {
  if (!isRecord(v)) throw fail(name, 'a spatial reference must be an object');
  const sr: SpatialReference = {};
  if (v.wkid !== undefined) sr.wkid = wkid(name, v.wkid);
  if (v.latestWkid !== undefined) sr.latestWkid = wkid(name, v.latestWkid);
  if (v.wkt !== undefined) {
    if (typeof v.wkt !== 'string' || v.wkt.trim() === '') throw fail(name, 'wkt must be a non-empty string');
    sr.wkt = v.wkt;
  }
  if (sr.wkid === undefined && sr.latestWkid === undefined && sr.wkt === undefined) {
    throw fail(name, 'a spatial reference needs wkid, latestWkid or wkt');
  }
  return sr;
}

function wkid(name: string, v: unknown): number {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0)
    throw fail(name, `'${String(v)}' is not a well-known id`);
  return n;
}
