/**
 * A geometry from an edit: checked against the layer's geometry type, given the layer's z and m
 * (kept from the edit where it has them, 0 and NaN where the layer has them and the edit not;
 * dropped where the layer has none, as ArcGIS does), projected from the spatial reference it came
 * in into the storage one, and given the bounds the feature table indexes.
 */
import { geometryBounds } from '../geometry/bounds.js';
import { type Dimensions, fitPosition, XY } from '../geometry/dimensions.js';
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

/** How the edit lays out its vertices: [x, y], then z with hasZ, then m with hasM (Esri JSON). */
interface Layouts {
  given: Dimensions;
  layer: Dimensions;
}

/** An ordinate beyond x/y: a finite number, or null/NaN for "none" (a missing z is 0, m NaN). */
function ordinate(value: unknown, what: 'z' | 'm'): number {
  if (value === null || value === undefined || value === 'NaN') return what === 'z' ? 0 : Number.NaN;
  if (typeof value !== 'number' || !(Number.isFinite(value) || Number.isNaN(value)))
    throw editFailure(`A ${what} value must be a finite number.`);
  return Number.isNaN(value) && what === 'z' ? 0 : value;
}

function coordinate(value: unknown, layouts: Layouts): number[] {
  if (!Array.isArray(value) || value.length < 2) throw editFailure('A coordinate must be an [x, y] array.');
  const [x, y] = value;
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y))
    throw editFailure('Coordinates must be finite numbers.');
  const { given, layer } = layouts;
  if (!layer.hasZ && !layer.hasM) return [x, y];
  const full = [x, y];
  if (given.hasZ) full.push(ordinate(value[2], 'z'));
  if (given.hasM) full.push(ordinate(value[given.hasZ ? 3 : 2], 'm'));
  return fitPosition(full, given, layer);
}

function coordinateList(value: unknown, min: number, what: string, layouts: Layouts): Coordinates {
  if (!Array.isArray(value) || value.length < min)
    throw editFailure(`A ${what} needs at least ${min} coordinates.`);
  return value.map((c) => coordinate(c, layouts));
}

function parts(value: unknown, what: string, min: number, layouts: Layouts): Coordinates[] {
  if (!Array.isArray(value) || value.length === 0) throw editFailure(`A ${what} needs at least one part.`);
  return value.map((p) => coordinateList(p, min, what, layouts));
}

/**
 * The layout of an edit's vertices: its hasZ/hasM when it says; without them a third ordinate is a
 * z (as ArcGIS reads it) and there is no m.
 */
function givenLayout(g: Record<string, unknown>): Dimensions {
  const hasM = g.hasM === true;
  if (typeof g.hasZ === 'boolean') return { hasZ: g.hasZ, hasM };
  const arrays = (g.points ?? g.paths ?? g.rings) as unknown;
  const first = Array.isArray(arrays) ? (Array.isArray(arrays[0]?.[0]) ? arrays[0][0] : arrays[0]) : null;
  return { hasZ: !hasM && Array.isArray(first) && first.length > 2, hasM };
}

/**
 * The geometry's content for a layer of `geometryType` with the layer's z and m (`layout`), or a
 * failure saying what is wrong.
 */
export function checkedGeometry(
  raw: unknown,
  geometryType: EsriGeometryType,
  layout: Dimensions = XY,
): EsriGeometry {
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
  const layouts = { given: givenLayout(g), layer: layout };
  switch (geometryType) {
    case 'esriGeometryPoint': {
      const [x, y] = coordinate([g.x, g.y], { given: XY, layer: XY });
      const point: EsriGeometry = { x, y };
      if (layout.hasZ) point.z = ordinate(g.z, 'z');
      if (layout.hasM) point.m = ordinate(g.m, 'm');
      return point;
    }
    case 'esriGeometryMultipoint':
      return { points: coordinateList(g.points, 1, 'multipoint', layouts) };
    case 'esriGeometryPolyline':
      return { paths: parts(g.paths, 'path', 2, layouts) };
    case 'esriGeometryPolygon':
      return { rings: parts(g.rings, 'ring', 3, layouts).map(closedRing) };
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
  layout: Dimensions = XY,
): StoredGeometry {
  const checked = checkedGeometry(raw, geometryType, layout);
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
