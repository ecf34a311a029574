import { badRequest } from '../errors.js';
import { geoJSONToEsri } from '../geometry/geojson.js';
import type { GeoJSONFeature } from '../geometry/geojson-types.js';
import type { EsriPolygon } from '../geometry/types.js';
import type { BoundaryKind, BoundaryRecord } from './boundary-lookup.js';

/** Which properties of an administrator's GeoJSON name each boundary. */
export interface BoundaryFeatureMapping {
  kind: BoundaryKind;
  /** Property holding the display name (a postal area may use its code). */
  nameProperty: string;
  /** Properties holding exact codes (postal code, ISO code...). */
  codeProperties?: string[];
  /** Properties holding other names, matched with spelling tolerance. */
  aliasProperties?: string[];
  /** ISO alpha-2 of every feature, or the property that holds it. */
  countryCode?: string;
  countryProperty?: string;
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value).trim());

/**
 * Boundary records from GeoJSON polygons in WGS84 (e.g. ZIP code tabulation areas an administrator
 * loads for postal lookups). Features without a polygon or a name are skipped.
 */
export function boundaryRecordsFromFeatures(
  features: readonly GeoJSONFeature[],
  mapping: BoundaryFeatureMapping,
): BoundaryRecord[] {
  const records: BoundaryRecord[] = [];
  for (const f of features) {
    const geometry = f.geometry;
    if (!geometry || (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')) continue;
    const properties = f.properties ?? {};
    const name = text(properties[mapping.nameProperty]);
    if (!name) continue;
    const codes = (mapping.codeProperties ?? []).map((p) => text(properties[p])).filter(Boolean);
    const aliases = (mapping.aliasProperties ?? []).map((p) => text(properties[p])).filter(Boolean);
    const countryCode = mapping.countryProperty
      ? text(properties[mapping.countryProperty])
      : mapping.countryCode;
    const polygon = geoJSONToEsri(geometry, { wkid: 4326, latestWkid: 4326 }) as EsriPolygon;
    records.push({
      kind: mapping.kind,
      name,
      codes,
      aliases,
      countryCode: countryCode || undefined,
      polygon,
    });
  }
  if (features.length > 0 && records.length === 0) {
    throw badRequest('No boundary could be read from the features.', [
      `Expected polygons with a '${mapping.nameProperty}' property.`,
    ]);
  }
  return records;
}
