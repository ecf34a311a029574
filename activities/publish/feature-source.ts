/**
 * GeoJSON and zipped shapefiles as a table of properties plus one geometry per row. Publishing streams
 * GeoJSON (geojson-source.ts); zipped shapefiles are parsed whole, in a thread of their own under the
 * archive budget (parse-thread.ts, shapefile-zip.ts).
 */
import { badRequest } from '../../lib/errors.js';
import type { GeoJSONFeature, GeoJSONGeometry } from '../../lib/geometry/geojson-types.js';
import { fitGeoJSON, geoJSONToEsri, XY } from '../../lib/geometry/index.js';
import type { EsriGeometry, EsriGeometryType } from '../../lib/geometry/types.js';
import type { CellValue } from '../../lib/ingest/index.js';

export interface FeatureTable {
  name: string;
  headers: string[];
  rows: CellValue[][];
  geometries: (EsriGeometry | { reason: string } | null)[];
  geometryType: EsriGeometryType | null;
  /** Some geometry has a third ordinate (z): the layer keeps z, 0 where a position has none. */
  hasZ: boolean;
  /** Columns holding JSON numbers in some features and strings in others: text, as GDAL reads them. */
  textColumns: number[];
}

/** The Esri geometry type a GeoJSON (or WKB, GeoPackage, SpatiaLite) geometry type is stored as. */
export const GEOMETRY_KIND: Record<string, EsriGeometryType> = {
  Point: 'esriGeometryPoint',
  MultiPoint: 'esriGeometryMultipoint',
  LineString: 'esriGeometryPolyline',
  MultiLineString: 'esriGeometryPolyline',
  Polygon: 'esriGeometryPolygon',
  MultiPolygon: 'esriGeometryPolygon',
};

/**
 * Builds a table from features seen one at a time: the union of property names in order of first
 * appearance, the geometry type most features have, and the columns holding numbers in some features
 * and strings in others. Only the first `keep` features are held (all of them by default), so a
 * stream of any length can be described in bounded memory.
 */
export class FeatureTableBuilder {
  private readonly headers: string[] = [];
  private readonly seen = new Set<string>();
  private readonly counts = new Map<EsriGeometryType, number>();
  private readonly strings = new Set<string>();
  private readonly numbers = new Set<string>();
  private readonly kept: GeoJSONFeature[] = [];
  private hasZ = false;
  count = 0;

  constructor(private readonly keep = Number.POSITIVE_INFINITY) {}

  add(feature: GeoJSONFeature): void {
    const properties = feature.properties ?? {};
    for (const key of Object.keys(properties)) {
      if (!this.seen.has(key)) {
        this.seen.add(key);
        this.headers.push(key);
      }
      const value = cell(properties[key]);
      if (typeof value === 'string') this.strings.add(key);
      else if (typeof value === 'number') this.numbers.add(key);
    }
    const kind = feature.geometry ? GEOMETRY_KIND[feature.geometry.type] : undefined;
    if (kind) this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    if (!this.hasZ && feature.geometry) this.hasZ = hasThirdOrdinate(feature.geometry);
    if (this.kept.length < this.keep) this.kept.push(feature);
    this.count++;
  }

  table(name: string): FeatureTable {
    const headers = [...this.headers];
    const geometryType = [...this.counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    const textColumns = headers
      .map((h, i) => (this.strings.has(h) && this.numbers.has(h) ? i : -1))
      .filter((i) => i >= 0);
    return {
      name,
      headers,
      rows: this.kept.map((f) => featureRow(f, headers)),
      geometries: this.kept.map((f) => featureGeometry(f, geometryType, this.hasZ)),
      geometryType,
      hasZ: this.hasZ,
      textColumns,
    };
  }
}

/** A table from GeoJSON features; the layer takes the geometry type most features have. */
export function featureTable(name: string, features: readonly GeoJSONFeature[]): FeatureTable {
  const builder = new FeatureTableBuilder();
  for (const f of features) builder.add(f);
  return builder.table(name);
}

/** One feature's property values in the order of the table's headers. */
export const featureRow = (f: GeoJSONFeature, headers: readonly string[]): CellValue[] =>
  headers.map((h) => cell(f.properties?.[h]));

/** The first position of a geometry has a z (RFC 7946: a third element is the altitude). */
function hasThirdOrdinate(g: GeoJSONGeometry): boolean {
  if (g.type === 'GeometryCollection') return g.geometries.some(hasThirdOrdinate);
  let c: unknown = g.coordinates;
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0];
  return Array.isArray(c) && c.length > 2 && typeof c[2] === 'number';
}

/**
 * One feature's geometry for a layer of `layerType`, or why it cannot be stored there. Positions
 * are [x, y, z] when the layer has z (0 where the file gives none), [x, y] otherwise; elements past
 * the third are not ordinates GeoJSON defines and are left out.
 */
export const featureGeometry = (f: GeoJSONFeature, layerType: EsriGeometryType | null, hasZ = false) =>
  toGeometry(f.geometry, layerType, hasZ);

const XYZ = { hasZ: true, hasM: false };
/** Read as if every position had z and m, so short positions get z 0 and a fourth element is dropped. */
const ANY = { hasZ: true, hasM: true };

function toGeometry(
  g: GeoJSONGeometry | null | undefined,
  layerType: EsriGeometryType | null,
  hasZ: boolean,
) {
  if (!g) return null;
  const kind = GEOMETRY_KIND[g.type];
  if (!kind) return { reason: `Geometry type ${g.type} is not supported in a feature layer.` };
  if (kind !== layerType) return { reason: `A ${g.type} cannot be stored in a ${layerType} layer.` };
  try {
    return geoJSONToEsri(fitGeoJSON(g, ANY, hasZ ? XYZ : XY));
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
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw badRequest('Unable to read the file.', [
      'The file is not valid GeoJSON (JSON could not be parsed).',
    ]);
  }
  return featureTable(name, documentFeatures(doc));
}

/** The features of a whole GeoJSON document: a FeatureCollection's, a Feature, or a bare geometry. */
export function documentFeatures(value: unknown): GeoJSONFeature[] {
  const doc = value as { type?: unknown; features?: unknown } | null;
  if (doc?.type === 'FeatureCollection' && Array.isArray(doc.features)) {
    return doc.features.map((f) => checkedFeature(f));
  }
  if (doc?.type === 'Feature') return [checkedFeature(doc)];
  if (doc && typeof doc.type === 'string' && GEOMETRY_KIND[doc.type]) {
    return [{ type: 'Feature', properties: {}, geometry: doc as unknown as GeoJSONGeometry }];
  }
  throw badRequest('Unable to read the file.', [
    'The file is not a GeoJSON FeatureCollection, Feature or geometry.',
  ]);
}

/** A feature as the loader reads it: an object whose properties, if any, are an object. */
export function checkedFeature(value: unknown): GeoJSONFeature {
  const f = value as { properties?: unknown } | null;
  if (!f || typeof f !== 'object' || Array.isArray(f))
    throw badRequest('Unable to read the file.', ['A GeoJSON feature is not an object.']);
  if (
    f.properties !== undefined &&
    f.properties !== null &&
    (typeof f.properties !== 'object' || Array.isArray(f.properties))
  )
    throw badRequest('Unable to read the file.', ['The properties of a GeoJSON feature are not an object.']);
  return f as GeoJSONFeature;
}
