/**
 * GeoJSON and zipped shapefiles as a table of properties plus one geometry per row. Both are parsed
 * whole (GeoJSON is one JSON value; shpjs reads the zip in memory), which bounds their size by the
 * upload limit. shpjs applies the .prj (features come out in WGS84) and the .cpg code page.
 */
import shp from 'shpjs';
import { badRequest } from '../../lib/errors.js';
import type { GeoJSONFeature, GeoJSONGeometry } from '../../lib/geometry/geojson-types.js';
import { geoJSONToEsri } from '../../lib/geometry/index.js';
import type { EsriGeometry, EsriGeometryType } from '../../lib/geometry/types.js';
import type { CellValue } from '../../lib/ingest/index.js';

export interface FeatureTable {
  name: string;
  headers: string[];
  rows: CellValue[][];
  geometries: (EsriGeometry | { reason: string } | null)[];
  geometryType: EsriGeometryType | null;
  /** Columns holding JSON numbers in some features and strings in others: text, as GDAL reads them. */
  textColumns: number[];
}

const KIND: Record<string, EsriGeometryType> = {
  Point: 'esriGeometryPoint',
  MultiPoint: 'esriGeometryMultipoint',
  LineString: 'esriGeometryPolyline',
  MultiLineString: 'esriGeometryPolyline',
  Polygon: 'esriGeometryPolygon',
  MultiPolygon: 'esriGeometryPolygon',
};

/** A table from GeoJSON features; the layer takes the geometry type most features have. */
export function featureTable(name: string, features: readonly GeoJSONFeature[]): FeatureTable {
  const headers: string[] = [];
  const seen = new Set<string>();
  const counts = new Map<EsriGeometryType, number>();
  for (const f of features) {
    for (const key of Object.keys(f.properties ?? {})) {
      if (!seen.has(key)) {
        seen.add(key);
        headers.push(key);
      }
    }
    const kind = f.geometry ? KIND[f.geometry.type] : undefined;
    if (kind) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const geometryType = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  const rows = features.map((f) => headers.map((h) => cell(f.properties?.[h])));
  const geometries = features.map((f) => toGeometry(f.geometry, geometryType));
  const textColumns = headers
    .map((_, i) => i)
    .filter((i) => rows.some((r) => typeof r[i] === 'string') && rows.some((r) => typeof r[i] === 'number'));
  return { name, headers, rows, geometries, geometryType, textColumns };
}

function toGeometry(g: GeoJSONGeometry | null | undefined, layerType: EsriGeometryType | null) {
  if (!g) return null;
  const kind = KIND[g.type];
  if (!kind) return { reason: `Geometry type ${g.type} is not supported in a feature layer.` };
  if (kind !== layerType) return { reason: `A ${g.type} cannot be stored in a ${layerType} layer.` };
  try {
    return geoJSONToEsri(g);
  } catch {
    return { reason: 'The geometry is invalid.' };
  }
}

function cell(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v;
  return JSON.stringify(v);
}

export function parseGeoJson(bytes: Buffer, name: string): FeatureTable {
  let doc: { type?: string; features?: unknown; geometry?: unknown };
  try {
    doc = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw badRequest('Unable to read the file.', [
      'The file is not valid GeoJSON (JSON could not be parsed).',
    ]);
  }
  if (doc?.type === 'FeatureCollection' && Array.isArray(doc.features))
    return featureTable(name, doc.features as GeoJSONFeature[]);
  if (doc?.type === 'Feature') return featureTable(name, [doc as unknown as GeoJSONFeature]);
  if (doc && typeof doc.type === 'string' && KIND[doc.type]) {
    return featureTable(name, [
      { type: 'Feature', properties: {}, geometry: doc as unknown as GeoJSONGeometry },
    ]);
  }
  throw badRequest('Unable to read the file.', [
    'The file is not a GeoJSON FeatureCollection, Feature or geometry.',
  ]);
}

/** One table per shapefile in the zip, named after the file. */
export async function parseShapefileZip(bytes: Buffer): Promise<FeatureTable[]> {
  let parsed: unknown;
  try {
    parsed = await shp(bytes);
  } catch (e) {
    throw badRequest('Unable to read the file.', [
      `The zip does not hold a readable shapefile (.shp, .shx, .dbf): ${e instanceof Error ? e.message : String(e)}`,
    ]);
  }
  const collections = (Array.isArray(parsed) ? parsed : [parsed]) as {
    fileName?: string;
    features: GeoJSONFeature[];
  }[];
  if (collections.length === 0) throw badRequest('Unable to read the file.', ['The zip holds no shapefile.']);
  return collections.map((c, i) => featureTable(baseName(c.fileName) || `layer${i}`, c.features ?? []));
}

const baseName = (path: string | undefined) => (path ?? '').split('/').pop() ?? '';
