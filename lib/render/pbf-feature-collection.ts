import { PbfWriter as Pbf } from 'pbf';
import type { Bounds, EsriGeometryType, SpatialReference } from '../geometry/types.js';
import type { EsriFieldType } from '../query/field-types.js';
import type { QuantizedParts } from '../query/quantize-geometry.js';
import type { QuantizeTransform } from '../query/quantize-transform.js';
import { PBF_FIELD_TYPE, SQL_TYPE_OTHER, writeValue } from './pbf-values.js';

/**
 * Query answers as the ArcGIS FeatureCollection protocol buffer (f=pbf): FeatureCollectionPBuffer
 * { version = 1, queryResult = 2 { featureResult = 1 | countResult = 2 | idsResult = 3 |
 * extentCountResult = 4 } }, field numbers from Esri's published schema. Feature geometries arrive
 * already quantized and flat (quantize-geometry.ts): each part starts with absolute cells, then
 * differences, which is the delta encoding of the format's `coords`.
 */
export const PBF_VERSION = '1.0';

const GEOMETRY_TYPE: Readonly<Record<EsriGeometryType, number>> = {
  esriGeometryPoint: 0,
  esriGeometryMultipoint: 1,
  esriGeometryPolyline: 2,
  esriGeometryPolygon: 3,
  esriGeometryEnvelope: 5,
};
/** GeometryType esriGeometryTypeNone: tables, statistics, distinct values. */
const GEOMETRY_NONE = 127;

export interface PbfField {
  name: string;
  type: EsriFieldType;
  alias?: string;
}

export interface PbfFeatureResult {
  objectIdFieldName: string;
  globalIdFieldName: string;
  /** Absent for answers without geometry. */
  geometryType?: EsriGeometryType | null;
  spatialReference?: SpatialReference;
  exceededTransferLimit: boolean;
  /** The geometries' vertices carry z (and m) cells after x and y; the transform has their grids. */
  hasZ?: boolean;
  hasM?: boolean;
  /** Required whenever a feature has a geometry: PBF coordinates are grid cells. */
  transform?: QuantizeTransform | null;
  fields: readonly PbfField[];
  /** How many features the answer holds. */
  featureCount: number;
  /** A feature's attribute, as the JSON answer has it (toWireValue), by feature index and field. */
  attribute(index: number, field: PbfField): unknown;
  /** Each feature's quantized geometry (quantize-geometry.ts), by index; absent or null: none. */
  geometries?: readonly (QuantizedParts | null)[] | null;
  /** Each feature's quantized centroid (returnCentroid), by index; absent or null: none. */
  centroids?: readonly (QuantizedParts | null)[] | null;
}

export function encodeFeatureResult(result: PbfFeatureResult): Uint8Array<ArrayBuffer> {
  return collection(2, 1, writeFeatureResult, result);
}

export function encodeCount(count: number): Uint8Array<ArrayBuffer> {
  return collection(2, 2, (n: number, pbf) => pbf.writeVarintField(1, n), count);
}

export function encodeIds(objectIdFieldName: string, ids: readonly number[]): Uint8Array<ArrayBuffer> {
  return collection(
    2,
    3,
    (v: { name: string; ids: number[] }, pbf) => {
      pbf.writeStringField(1, v.name);
      pbf.writePackedVarint(3, v.ids);
    },
    { name: objectIdFieldName, ids: [...ids] },
  );
}

/** returnExtentOnly (with or without the count): ExtentCountResult { extent = 1, count = 2 }. */
export function encodeExtent(
  bounds: Bounds | null,
  sr: SpatialReference,
  count?: number,
): Uint8Array<ArrayBuffer> {
  return collection(
    2,
    4,
    (_: null, pbf) => {
      pbf.writeMessage(
        1,
        (__: null, p) => {
          const [xmin, ymin, xmax, ymax] = bounds ?? [Number.NaN, Number.NaN, Number.NaN, Number.NaN];
          p.writeDoubleField(1, xmin);
          p.writeDoubleField(2, ymin);
          p.writeDoubleField(3, xmax);
          p.writeDoubleField(4, ymax);
          p.writeMessage(5, writeSpatialReference, sr);
        },
        null,
      );
      if (count !== undefined) pbf.writeVarintField(2, count);
    },
    null,
  );
}

function collection<T>(
  tag: number,
  resultTag: number,
  fn: (v: T, pbf: Pbf) => void,
  value: T,
): Uint8Array<ArrayBuffer> {
  const pbf = new Pbf();
  pbf.writeStringField(1, PBF_VERSION);
  pbf.writeMessage(tag, (v: T, p) => p.writeMessage(resultTag, fn, v), value);
  // finish() answers a view of the writer's own ArrayBuffer, never a shared one.
  return pbf.finish() as Uint8Array<ArrayBuffer>;
}

function writeFeatureResult(r: PbfFeatureResult, pbf: Pbf): void {
  pbf.writeStringField(1, r.objectIdFieldName);
  pbf.writeMessage(
    2,
    (name: string, p) => {
      p.writeStringField(1, name);
      p.writeBooleanField(2, true);
    },
    r.objectIdFieldName,
  );
  if (r.globalIdFieldName) pbf.writeStringField(3, r.globalIdFieldName);
  pbf.writeVarintField(7, r.geometryType ? GEOMETRY_TYPE[r.geometryType] : GEOMETRY_NONE);
  if (r.spatialReference) pbf.writeMessage(8, writeSpatialReference, r.spatialReference);
  if (r.exceededTransferLimit) pbf.writeBooleanField(9, true);
  if (r.hasZ) pbf.writeBooleanField(10, true);
  if (r.hasM) pbf.writeBooleanField(11, true);
  if (r.transform) pbf.writeMessage(12, writeTransform, r.transform);
  for (const f of r.fields) pbf.writeMessage(13, writeField, f);
  // One Value writer per field, made once rather than per feature.
  const writers = r.fields.map((f) => (v: unknown, p: Pbf) => writeValue(f.type, v, p));
  for (let i = 0; i < r.featureCount; i++) {
    pbf.writeMessage(
      15,
      (index: number, p) => {
        r.fields.forEach((f, k) => {
          p.writeMessage(1, writers[k], r.attribute(index, f));
        });
        const geometry = r.geometries?.[index];
        if (geometry) p.writeMessage(2, writeGeometry, geometry);
        const centroid = r.centroids?.[index];
        if (centroid) p.writeMessage(4, writeGeometry, centroid);
      },
      i,
    );
  }
}

function writeSpatialReference(sr: SpatialReference, pbf: Pbf): void {
  if (sr.wkid) pbf.writeVarintField(1, sr.wkid);
  if (sr.latestWkid) pbf.writeVarintField(2, sr.latestWkid);
  if (sr.wkt) pbf.writeStringField(5, sr.wkt);
}

function writeTransform(t: QuantizeTransform, pbf: Pbf): void {
  pbf.writeVarintField(1, t.originPosition === 'upperLeft' ? 0 : 1);
  // Scale and Translate: x = 1, y = 2, m = 3, z = 4.
  pbf.writeMessage(
    2,
    (s: QuantizeTransform, p) => {
      p.writeDoubleField(1, s.scale[0]);
      p.writeDoubleField(2, s.scale[1]);
      if (s.m) p.writeDoubleField(3, s.m.scale);
      if (s.z) p.writeDoubleField(4, s.z.scale);
    },
    t,
  );
  pbf.writeMessage(
    3,
    (s: QuantizeTransform, p) => {
      p.writeDoubleField(1, s.translate[0]);
      p.writeDoubleField(2, s.translate[1]);
      if (s.m) p.writeDoubleField(3, s.m.translate);
      if (s.z) p.writeDoubleField(4, s.z.translate);
    },
    t,
  );
}

function writeField(f: PbfField, pbf: Pbf): void {
  pbf.writeStringField(1, f.name);
  pbf.writeVarintField(2, PBF_FIELD_TYPE[f.type]);
  pbf.writeStringField(3, f.alias ?? f.name);
  pbf.writeVarintField(4, SQL_TYPE_OTHER);
}

/** lengths (vertices per part; none for a point) and coords (every part's cells in a row). */
function writeGeometry(g: QuantizedParts, pbf: Pbf): void {
  if (g.lengths.length > 0) pbf.writePackedVarint(2, g.lengths);
  pbf.writePackedSVarint(3, g.coords);
}
