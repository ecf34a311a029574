import type { Bounds, EsriGeometry, EsriGeometryType, SpatialReference } from '../geometry/types.js';
import type { CatalogField } from './field-catalog.js';
import type { PlanStatistic } from './query-plan.js';
import { type ResponseField, responseField } from './response-fields.js';
import { roundGeometry } from './round-geometry.js';
import type { FeatureRow } from './row-mapping.js';
import { toNumber, toWireValue } from './wire-values.js';

/**
 * Pure renderers of query results in Esri JSON, the shapes rest-js and the ArcGIS clients read.
 * Rows come from row-mapping.ts; geometries are already in the output spatial reference.
 */
export interface ResponseLayer {
  objectIdField: string;
  /** Empty when the layer has no GlobalID field. */
  globalIdField: string;
  /** Null for tables, which have no geometry. */
  geometryType: EsriGeometryType | null;
  /** Spatial reference of the returned geometries and extents. */
  spatialReference: SpatialReference;
  /** The returned geometries carry z / m (returnZ / returnM on a layer that has them). */
  hasZ?: boolean;
  hasM?: boolean;
}

export interface FeatureSetInput {
  layer: ResponseLayer;
  /** The plan's columns: the fields of the attributes, in order. */
  fields: readonly CatalogField[];
  rows: readonly FeatureRow[];
  exceededTransferLimit: boolean;
  returnGeometry: boolean;
  geometryPrecision?: number | null;
}

export interface EsriFeature {
  attributes: Record<string, unknown>;
  geometry?: EsriGeometry | null;
  centroid?: { x: number; y: number } | null;
}

export function renderFeatureSet(input: FeatureSetInput): Record<string, unknown> {
  const { layer } = input;
  const out: Record<string, unknown> = {
    objectIdFieldName: layer.objectIdField,
    uniqueIdField: { name: layer.objectIdField, isSystemMaintained: true },
    globalIdFieldName: layer.globalIdField,
  };
  if (layer.geometryType) {
    out.geometryType = layer.geometryType;
    out.spatialReference = layer.spatialReference;
    if (layer.hasZ) out.hasZ = true;
    if (layer.hasM) out.hasM = true;
  }
  out.fields = input.fields.map(responseField);
  out.features = input.rows.map((row) => feature(row, input));
  out.exceededTransferLimit = input.exceededTransferLimit;
  return out;
}

/** One attribute of a feature as it leaves the server (the object id from its own column). */
export const featureAttribute = (row: FeatureRow, f: CatalogField, objectIdField: string): unknown =>
  f.name === objectIdField ? row.objectid : toWireValue(row.attrs[f.name], f.type);

/** A feature set whose rows are made as they are written (see featureSetJsonBytes). */
export interface StreamedFeatureSetInput extends Omit<FeatureSetInput, 'rows'> {
  rows: Iterable<FeatureRow>;
}

/** The JSON object key the features are written under, as JSON.stringify writes it after `fields`. */
const FEATURES_KEY = ',"features":[]';

const COMMA = 0x2c;

/**
 * The UTF-8 bytes of `JSON.stringify(renderFeatureSet(input))`, byte for byte, as a sequence of pieces: the
 * head (everything before the first feature), then `featuresPerPiece` features at a time, then the tail. No
 * piece holds more than that many features and rows are read from `input.rows` only as they are written,
 * so a large answer is never held whole.
 */
export function* featureSetJsonBytes(
  input: StreamedFeatureSetInput,
  featuresPerPiece = 500,
): Generator<Uint8Array, void, undefined> {
  const encoder = new TextEncoder();
  const shell = JSON.stringify(renderFeatureSet({ ...input, rows: [] }));
  // `features` comes after `fields` and before `exceededTransferLimit` (a boolean), so the last
  // occurrence is the key itself, whatever the field names and aliases hold.
  const at = shell.lastIndexOf(FEATURES_KEY);
  yield encoder.encode(`${shell.slice(0, at)},"features":[`);
  // A piece's features are stringified as one array: V8 writes it faster than one call a feature
  // (bench/README.md, queries, session 30). Its text is encoded as it is, and the array's brackets are cut
  // from the bytes (the opening one becomes the comma after the previous piece): no second copy of the text.
  let piece: EsriFeature[] = [];
  let first = true;
  const encoded = (): Uint8Array => {
    const bytes = encoder.encode(JSON.stringify(piece));
    piece = [];
    if (first) {
      first = false;
      return bytes.subarray(1, bytes.length - 1);
    }
    bytes[0] = COMMA;
    return bytes.subarray(0, bytes.length - 1);
  };
  for (const row of input.rows) {
    piece.push(feature(row, input));
    if (piece.length >= featuresPerPiece) yield encoded();
  }
  if (piece.length > 0) yield encoded();
  yield encoder.encode(`]${shell.slice(at + FEATURES_KEY.length)}`);
}

function feature(row: FeatureRow, input: Omit<FeatureSetInput, 'rows'>): EsriFeature {
  const attributes: Record<string, unknown> = {};
  for (const f of input.fields) attributes[f.name] = featureAttribute(row, f, input.layer.objectIdField);
  const out: EsriFeature = { attributes };
  if (input.returnGeometry && input.layer.geometryType) {
    const shape = row.shape ?? null;
    out.geometry =
      shape && input.geometryPrecision != null ? roundGeometry(shape, input.geometryPrecision) : shape;
  }
  if (row.centroid !== undefined) {
    const c = row.centroid;
    out.centroid =
      c && input.geometryPrecision != null ? (roundGeometry(c, input.geometryPrecision) as typeof c) : c;
  }
  return out;
}

/** Distinct values: features of attributes only, over the asked fields. */
export function renderDistinctValues(
  fields: readonly CatalogField[],
  rows: readonly Record<string, unknown>[],
  exceededTransferLimit: boolean,
): Record<string, unknown> {
  return {
    fields: fields.map(responseField),
    features: rows.map((attrs) => ({ attributes: wireAttributes(fields, attrs) })),
    exceededTransferLimit,
  };
}

export const renderCount = (count: unknown): { count: number } => ({ count: Number(toNumber(count) ?? 0) });

export function renderIds(
  objectIdFieldName: string,
  ids: readonly unknown[],
): { objectIdFieldName: string; objectIds: number[] } {
  return { objectIdFieldName, objectIds: ids.map((id) => Number(toNumber(id))) };
}

/** An empty result has an empty envelope, written with NaN coordinates as Esri JSON does. */
export function renderExtent(
  bounds: Bounds | null,
  spatialReference: SpatialReference,
  count?: unknown,
): Record<string, unknown> {
  const [xmin, ymin, xmax, ymax] = bounds ?? ['NaN', 'NaN', 'NaN', 'NaN'];
  const out: Record<string, unknown> = {};
  if (count !== undefined) out.count = renderCount(count).count;
  out.extent = { xmin, ymin, xmax, ymax, spatialReference };
  return out;
}

/** Bounds from an extent row (`xmin..ymax`, null when nothing matched). */
export function boundsOfRow(row: Readonly<Record<string, unknown>> | undefined): Bounds | null {
  if (!row || row.xmin === null || row.xmin === undefined) return null;
  return [row.xmin, row.ymin, row.xmax, row.ymax].map((v) => Number(toNumber(v))) as Bounds;
}

/** Statistics: one feature per group, group-by fields then the statistics' output names. */
export function renderStatistics(
  groupBy: readonly CatalogField[],
  statistics: readonly PlanStatistic[],
  rows: readonly Record<string, unknown>[],
  exceededTransferLimit: boolean,
): Record<string, unknown> {
  const fields: ResponseField[] = [
    ...groupBy.map(responseField),
    ...statistics.map((s) =>
      responseField({
        name: s.outStatisticFieldName,
        type: statisticType(s),
        alias: s.outStatisticFieldName,
      }),
    ),
  ];
  const features = rows.map((row) => {
    const attributes = wireAttributes(
      groupBy,
      Object.fromEntries(groupBy.map((g) => [g.name, row[g.column]])),
    );
    for (const s of statistics)
      attributes[s.outStatisticFieldName] = toWireValue(row[s.alias], statisticType(s));
    return { attributes };
  });
  return {
    displayFieldName: '',
    fieldAliases: Object.fromEntries(fields.map((f) => [f.name, f.alias])),
    fields,
    features,
    exceededTransferLimit,
  };
}

/** Counts are integers, sums and moments doubles, min and max keep the field's type. */
function statisticType(s: PlanStatistic): CatalogField['type'] {
  if (s.statisticType === 'count') return 'esriFieldTypeInteger';
  if (s.statisticType === 'min' || s.statisticType === 'max' || s.statisticType === 'percentile_disc')
    return s.field?.type ?? 'esriFieldTypeDouble';
  return 'esriFieldTypeDouble';
}

function wireAttributes(
  fields: readonly CatalogField[],
  attrs: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.name, toWireValue(attrs[f.name], f.type)]));
}
