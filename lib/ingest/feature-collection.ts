/**
 * ArcGIS feature collections: the JSON a web map stores for features it holds itself, either as
 * `{ layers: [{ layerDefinition, featureSet }] }` (a Feature Collection item's data), inside a web
 * map's `{ featureCollection: { layers } }`, or one bare `{ layerDefinition, featureSet }`. Each layer
 * comes out as declared fields, rows of attribute values and Esri geometries in the layer's
 * spatial reference, with the drawing information kept.
 */

import { declaredDomain } from '../edit/attribute-values.js';
import { badRequest } from '../errors.js';
import { type Dimensions, fitEsri } from '../geometry/dimensions.js';
import { geometryTypeOf } from '../geometry/kinds.js';
import type { EsriGeometry, EsriGeometryType, SpatialReference } from '../geometry/types.js';
import { type EsriFieldType, isEsriFieldType } from '../query/field-types.js';
import type { CellValue } from './field-types.js';

export interface CollectionField {
  name: string;
  alias: string;
  type: EsriFieldType;
  length?: number;
  nullable: boolean;
  /** The coded-value or range domain the layer definition declares. */
  domain?: Record<string, unknown>;
}

export interface CollectionLayer {
  name: string;
  geometryType: EsriGeometryType | null;
  /** Null when neither the feature set, the layer definition nor a geometry says. */
  spatialReference: SpatialReference | null;
  fields: CollectionField[];
  rows: CellValue[][];
  geometries: (EsriGeometry | { reason: string } | null)[];
  /** z and m as the layer definition (or the feature set) declares them; every geometry has this layout. */
  hasZ: boolean;
  hasM: boolean;
  /** Layer resource keys carried over: drawingInfo, displayField. */
  layerInfo: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
const unreadable = (detail: string) => badRequest('Unable to read the file.', [detail]);

/** Field types a feature table stores; the object id is the table's own, others have no column. */
const STORED = new Set<EsriFieldType>([
  'esriFieldTypeString',
  'esriFieldTypeInteger',
  'esriFieldTypeSmallInteger',
  'esriFieldTypeBigInteger',
  'esriFieldTypeDouble',
  'esriFieldTypeSingle',
  'esriFieldTypeDate',
  'esriFieldTypeGUID',
]);

const GEOMETRY_TYPES = new Set([
  'esriGeometryPoint',
  'esriGeometryMultipoint',
  'esriGeometryPolyline',
  'esriGeometryPolygon',
]);

/** The layers of a parsed feature collection document. */
export function featureCollectionLayers(doc: unknown): CollectionLayer[] {
  const root = obj(doc);
  const inner = obj(root?.featureCollection) ?? root;
  const layers = Array.isArray(inner?.layers) ? inner.layers : inner?.layerDefinition ? [inner] : null;
  if (!layers)
    throw unreadable(
      'The JSON is not a feature collection: it has no layers array of layerDefinition and featureSet.',
    );
  if (layers.length === 0) throw unreadable('The feature collection has no layers.');
  return layers.map((l, i) => collectionLayer(obj(l), i));
}

function collectionLayer(layer: Json | null, index: number): CollectionLayer {
  const definition = obj(layer?.layerDefinition);
  const featureSet = obj(layer?.featureSet);
  if (!definition || !featureSet)
    throw unreadable(`Layer ${index} of the feature collection lacks its layerDefinition or featureSet.`);
  const features = Array.isArray(featureSet.features) ? featureSet.features : [];
  const declared = String(definition.geometryType ?? featureSet.geometryType ?? '');
  const geometryType = GEOMETRY_TYPES.has(declared) ? (declared as EsriGeometryType) : null;
  const objectIdField = String(definition.objectIdField ?? '');
  const layout: Dimensions = {
    hasZ: geometryType !== null && (definition.hasZ === true || featureSet.hasZ === true),
    hasM: geometryType !== null && (definition.hasM === true || featureSet.hasM === true),
  };
  const fields: CollectionField[] = [];
  for (const raw of Array.isArray(definition.fields) ? definition.fields : []) {
    const f = obj(raw);
    const type = String(f?.type ?? '');
    if (!f || typeof f.name !== 'string' || !isEsriFieldType(type) || !STORED.has(type)) continue;
    if (f.name === objectIdField) continue;
    fields.push({
      name: f.name,
      alias: typeof f.alias === 'string' && f.alias ? f.alias : f.name,
      type,
      ...(type === 'esriFieldTypeString' && Number(f.length) > 0 ? { length: Number(f.length) } : {}),
      nullable: f.nullable !== false,
      ...domainOf(f.domain, f.name, type, index),
    });
  }
  const rows: CellValue[][] = [];
  const geometries: CollectionLayer['geometries'] = [];
  let spatialReference =
    srOf(featureSet.spatialReference) ??
    srOf(definition.spatialReference) ??
    srOf(obj(definition.extent)?.spatialReference);
  for (const raw of features) {
    const feature = obj(raw);
    const attributes = obj(feature?.attributes) ?? {};
    rows.push(fields.map((f) => cell(attributes[f.name])));
    const g = obj(feature?.geometry);
    spatialReference ??= srOf(g?.spatialReference);
    geometries.push(geometryType ? located(g, geometryType, layout) : null);
  }
  const layerInfo: Record<string, unknown> = {};
  if (definition.drawingInfo !== undefined) layerInfo.drawingInfo = definition.drawingInfo;
  if (typeof definition.displayField === 'string' && fields.some((f) => f.name === definition.displayField))
    layerInfo.displayField = definition.displayField;
  return {
    name: typeof definition.name === 'string' && definition.name ? definition.name : `layer${index}`,
    geometryType,
    spatialReference,
    fields,
    rows,
    geometries,
    ...layout,
    layerInfo,
  };
}

function srOf(v: unknown): SpatialReference | null {
  const sr = obj(v);
  if (!sr) return null;
  if (typeof sr.wkid === 'number' || typeof sr.latestWkid === 'number' || typeof sr.wkt === 'string')
    return sr as SpatialReference;
  return null;
}

function cell(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

/**
 * A feature's geometry in the layer's layout: its vertices as its own hasZ/hasM say (else as the
 * layer's), z and m kept where the layer has them, 0 and NaN where the layer has them and it not.
 */
function located(
  g: Json | null,
  layerType: EsriGeometryType,
  layout: Dimensions,
): EsriGeometry | { reason: string } | null {
  if (!g || Object.keys(g).filter((k) => !KEYS_BESIDE.has(k)).length === 0) return null;
  const { spatialReference: _, hasZ, hasM, ...geometry } = g;
  const given: Dimensions = {
    hasZ: typeof hasZ === 'boolean' ? hasZ : layout.hasZ,
    hasM: typeof hasM === 'boolean' ? hasM : layout.hasM,
  };
  // An empty point is written with x null or "NaN".
  if ('x' in geometry && !Number.isFinite(Number(geometry.x ?? Number.NaN))) return null;
  let kind: EsriGeometryType;
  try {
    kind = geometryTypeOf(geometry as unknown as EsriGeometry);
  } catch {
    return { reason: 'The geometry has none of x/y, points, paths or rings.' };
  }
  if (kind !== layerType) return { reason: `A ${kind} cannot be stored in a ${layerType} layer.` };
  const esri = geometry as unknown as EsriGeometry;
  const malformed = malformedShape(geometry);
  if (malformed) return { reason: malformed };
  try {
    return fitEsri(esri, given, layout);
  } catch {
    return { reason: 'The geometry has vertices that are not coordinate arrays.' };
  }
}

/** A vertex: at least x and y, finite numbers; z and m numbers or null (an m not measured). */
const isVertex = (p: unknown): boolean =>
  Array.isArray(p) &&
  p.length >= 2 &&
  Number.isFinite(p[0]) &&
  Number.isFinite(p[1]) &&
  p.slice(2).every((v) => v === null || typeof v === 'number');

/**
 * Why a geometry's shape cannot be stored, or undefined: every vertex is checked (the file is the
 * client's; a null or text vertex deep in a ring would otherwise reach the extent and the encoder).
 */
function malformedShape(g: Json): string | undefined {
  const vertices = 'The geometry has vertices that are not coordinate arrays.';
  if ('x' in g)
    return Number.isFinite(g.x) && Number.isFinite(g.y) ? undefined : "The point's x and y are not numbers.";
  const parts = g.points !== undefined ? [g.points] : (g.paths ?? g.rings);
  if (!Array.isArray(parts)) return vertices;
  for (const part of parts) if (!Array.isArray(part) || !part.every(isVertex)) return vertices;
  return undefined;
}

/** Keys of a geometry object that are not its shape. */
const KEYS_BESIDE = new Set(['spatialReference', 'hasZ', 'hasM']);

/** A field's domain, checked against its type; a malformed one makes the collection unreadable. */
function domainOf(raw: unknown, name: string, type: EsriFieldType, layer: number) {
  const read = declaredDomain(raw, { name, type });
  if ('problem' in read) throw unreadable(`Layer ${layer} of the feature collection: ${read.problem}`);
  return read.domain ? { domain: read.domain } : {};
}
