import type { QueryFormat } from '../normalized-query.js';
import { fail, present } from './parameter-values.js';

/**
 * `f`: json (the default here, though ArcGIS documents html), pjson or geojson. The layer
 * advertises "JSON, geoJSON", so pbf and html are refused with a clear error.
 */
export function normalizeFormat(value: string | undefined): QueryFormat {
  const text = present(value)?.toLowerCase();
  if (text === undefined || text === 'json') return 'json';
  if (text === 'pjson' || text === 'geojson') return text;
  throw fail('f', `'${value}' is not a supported format; use json, pjson or geojson`);
}
