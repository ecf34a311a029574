import { esriToGeoJSON } from '../geometry/geojson.js';
import type { GeoJSONGeometry } from '../geometry/geojson-types.js';
import type { CatalogField } from './field-catalog.js';
import type { FeatureRow } from './row-mapping.js';
import { toWireValue } from './wire-values.js';

/**
 * `f=geojson`: a FeatureCollection with the object id as each feature's `id`. Geometries must
 * already be in WGS84 (RFC 7946) unless the client asked another outSR. When more rows remain,
 * the collection says so in `properties.exceededTransferLimit`, as ArcGIS does.
 */
export interface GeoJsonFeature {
  type: 'Feature';
  id: number;
  geometry: GeoJSONGeometry | null;
  properties: Record<string, unknown>;
}

export interface GeoJsonFeatureCollection {
  type: 'FeatureCollection';
  features: GeoJsonFeature[];
  properties?: { exceededTransferLimit: true };
}

export function renderGeoJson(
  fields: readonly CatalogField[],
  rows: readonly FeatureRow[],
  exceededTransferLimit: boolean,
  objectIdField: string,
): GeoJsonFeatureCollection {
  const features = rows.map((row): GeoJsonFeature => {
    const properties: Record<string, unknown> = {};
    for (const f of fields) {
      properties[f.name] = f.name === objectIdField ? row.objectid : toWireValue(row.attrs[f.name], f.type);
    }
    return {
      type: 'Feature',
      id: row.objectid,
      geometry: row.shape ? esriToGeoJSON(row.shape) : null,
      properties,
    };
  });
  const collection: GeoJsonFeatureCollection = { type: 'FeatureCollection', features };
  if (exceededTransferLimit) collection.properties = { exceededTransferLimit: true };
  return collection;
}
