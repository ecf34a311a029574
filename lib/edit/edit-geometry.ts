/**
 * A geometry from an edit: checked against the layer's geometry type, reduced to x/y (hosted layers
 * here have no z or m), projected from the spatial reference it came in into the storage one, and
 * given the bounds the feature table indexes.
 */
import { geometryBounds } from '../geometry/bounds.js';
import { declaredGeometryType } from '../geometry/kinds.js';
import type { Bounds, EsriGeometry, EsriGeometryType, SpatialReference } from '../geometry/types.js';
import { createTransformer, sameSpatialReference } from '../projection/index.js';
import { editFailure } from './edit-errors.js';

export interface StoredGeometry {
  /** Esri JSON text in the storage spatial reference, without its spatialReference. */
  shape: string;
  bounds: Bounds;
}

type Coordinates = number[][];

function coordinate(value: unknown): number[] {
  if (!Array.isArray(value) || value.length < 2) throw editFailure('A coordinate must be an [x, y] array.');
  const [x, y] = value;
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y))
    throw editFailure('Coordinates must be finite numbers.');
  return [x, y];
}

function coordinateList(value: unknown, min: number, what: string): Coordinates {
  if (!Array.isArray(value) || value.length < min)
    throw editFailure(`A ${what} needs at least ${min} coordinates.`);
  return value.map(coordinate);
}

function parts(value: unknown, what: string, min: number): Coordinates[] {
  if (!Array.isArray(value) || value.length === 0) throw editFailure(`A ${what} needs at least one part.`);
  return value.map((p) => coordinateList(p, min, what));
}

/** The geometry's x/y content for a layer of `geometryType`, or a failure saying what is wrong. */
export function checkedGeometry(raw: unknown, geometryType: EsriGeometryType): EsriGeometry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw editFailure('The geometry must be an Esri JSON object.');
  const g = raw as Record<string, unknown>;
  const expected = geometryType.replace('esriGeometry', '').toLowerCase();
  // An envelope is no feature shape: it is reported as having none of the shapes' members.
  const declared = declaredGeometryType(g);
  const given =
    declared && declared !== 'esriGeometryEnvelope' ? declared.replace('esriGeometry', '').toLowerCase() : '';
  if (given !== expected)
    throw editFailure(
      given
        ? `The geometry is a ${given}; this layer holds ${expected}s.`
        : `The geometry has none of x/y, points, paths or rings; this layer holds ${expected}s.`,
    );
  switch (geometryType) {
    case 'esriGeometryPoint': {
      const [x, y] = coordinate([g.x, g.y]);
      return { x, y };
    }
    case 'esriGeometryMultipoint':
      return { points: coordinateList(g.points, 1, 'multipoint') };
    case 'esriGeometryPolyline':
      return { paths: parts(g.paths, 'path', 2) };
    case 'esriGeometryPolygon':
      return { rings: parts(g.rings, 'ring', 3).map(closedRing) };
    default:
      throw editFailure(`Layers of type ${geometryType} cannot be edited.`);
  }
}

function closedRing(ring: Coordinates): Coordinates {
  const first = ring[0];
  const last = ring[ring.length - 1];
  const closed = first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first];
  if (closed.length < 4) throw editFailure('A ring needs at least three distinct coordinates.');
  return closed;
}

/** The spatial reference a geometry is in: its own, else the request's inSR, else the storage one. */
export function geometrySpatialReference(
  raw: unknown,
  inSR: SpatialReference | null,
  storage: SpatialReference,
): SpatialReference {
  const own = (raw as { spatialReference?: unknown } | null)?.spatialReference;
  if (typeof own === 'object' && own !== null) {
    const sr = own as SpatialReference;
    if (sr.wkid !== undefined || sr.latestWkid !== undefined || sr.wkt !== undefined) return sr;
  }
  return inSR ?? storage;
}

export function storedGeometry(
  raw: unknown,
  geometryType: EsriGeometryType,
  from: SpatialReference,
  storage: SpatialReference,
): StoredGeometry {
  const checked = checkedGeometry(raw, geometryType);
  let projected: EsriGeometry = checked;
  if (!sameSpatialReference(from, storage)) {
    try {
      projected = createTransformer(from, storage).projectGeometry(checked);
    } catch (e) {
      throw editFailure(`The geometry cannot be projected: ${(e as Error).message}`);
    }
    delete projected.spatialReference;
  }
  const bounds = geometryBounds(projected);
  if (!bounds?.every(Number.isFinite))
    throw editFailure('The geometry lies outside what the layer spatial reference can hold.');
  return { shape: JSON.stringify(projected), bounds };
}
