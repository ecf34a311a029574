import type { QueryFormat } from '../normalized-query.js';
import { fail, present } from './parameter-values.js';

/**
 * `f`: json (the default here, though ArcGIS documents html), pjson, geojson or pbf (the ArcGIS
 * FeatureCollection protocol buffer). html is the directory's page, answered before the query runs.
 */
export function normalizeFormat(value: string | undefined): QueryFormat {
  const text = present(value)?.toLowerCase();
  if (text === undefined || text === 'json') return 'json';
  if (text === 'pjson' || text === 'geojson' || text === 'pbf') return text;
  throw fail('f', `'${value}' is not a supported format; use json, pjson, geojson or pbf`);
}
