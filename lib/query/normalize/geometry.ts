import type { EsriGeometryType } from '../../geometry/types.js';
import type { FilterDistance, GeometryFilter, LinearUnit, SpatialRel } from '../normalized-query.js';
import { checkFilterVertices } from '../query-limits.js';
import { asRecord, checkGeometry, envelopeBounds, inferGeometryType } from './geometry-json.js';
import { fail, present, type QueryParams, readJson, readNumber } from './parameter-values.js';
import { spatialReferenceObject, spatialReferenceParameter } from './spatial-reference.js';

/**
 * `geometry` with `geometryType`, `inSR` and `spatialRel`. The geometry is an envelope
 * `xmin,ymin,xmax,ymax`, a point `x,y`, or Esri JSON (whose type is read from its keys when
 * `geometryType` is absent). `inSR` wins over a spatialReference inside the geometry.
 */
export function normalizeGeometryFilter(params: QueryParams): GeometryFilter | null {
  const text = present(params.geometry);
  if (text === undefined) return null;
  const declared = normalizeGeometryType(params.geometrytype);
  const spatialRel = normalizeSpatialRel(params.spatialrel);
  const distance = normalizeDistance(params, spatialRel);
  let inSR =
    spatialReferenceParameter('inSR', params.insr) ??
    spatialReferenceParameter('defaultSR', params.defaultsr);
  if (!text.startsWith('{')) {
    const numbers = text.split(',').map((s) => readNumber('geometry', s.trim()));
    const type = declared ?? (numbers.length === 2 ? 'esriGeometryPoint' : 'esriGeometryEnvelope');
    if (type === 'esriGeometryEnvelope' && numbers.length === 4) {
      const [xmin, ymin, xmax, ymax] = numbers;
      return {
        geometry: { xmin, ymin, xmax, ymax },
        geometryType: type,
        inSR,
        spatialRel,
        bounds: envelopeBounds(xmin, ymin, xmax, ymax),
        distance,
      };
    }
    if (type === 'esriGeometryPoint' && numbers.length === 2) {
      const [x, y] = numbers;
      return { geometry: { x, y }, geometryType: type, inSR, spatialRel, bounds: [x, y, x, y], distance };
    }
    throw fail('geometry', 'expected xmin,ymin,xmax,ymax for an envelope, x,y for a point, or Esri JSON');
  }
  const json = asRecord(readJson('geometry', text));
  const inferred = inferGeometryType(json);
  const type = declared ?? inferred;
  if (!type || (inferred !== null && inferred !== type)) {
    throw fail('geometry', `the geometry does not have the shape of ${type ?? 'any Esri geometry type'}`);
  }
  const { geometry, bounds } = checkGeometry(json, type);
  checkFilterVertices(geometry);
  if (!inSR && json.spatialReference !== undefined)
    inSR = spatialReferenceObject('geometry', json.spatialReference);
  return { geometry, geometryType: type, inSR, spatialRel, bounds, distance };
}

const GEOMETRY_TYPES: EsriGeometryType[] = [
  'esriGeometryPoint',
  'esriGeometryMultipoint',
  'esriGeometryPolyline',
  'esriGeometryPolygon',
  'esriGeometryEnvelope',
];

export function normalizeGeometryType(value: string | undefined): EsriGeometryType | null {
  const text = present(value);
  if (text === undefined) return null;
  const found = GEOMETRY_TYPES.find((t) => t.toLowerCase() === text.toLowerCase());
  if (!found) throw fail('geometryType', `'${text}' is not one of ${GEOMETRY_TYPES.join(', ')}`);
  return found;
}

const SPATIAL_RELS: SpatialRel[] = [
  'esriSpatialRelIntersects',
  'esriSpatialRelEnvelopeIntersects',
  'esriSpatialRelIndexIntersects',
  'esriSpatialRelContains',
  'esriSpatialRelWithin',
  'esriSpatialRelTouches',
  'esriSpatialRelCrosses',
  'esriSpatialRelOverlaps',
];

/** Case-insensitive; the esriSpatialRel prefix may be left off. Default: intersects. */
export function normalizeSpatialRel(value: string | undefined): SpatialRel {
  const text = present(value)?.toLowerCase();
  if (text === undefined) return 'esriSpatialRelIntersects';
  const found = SPATIAL_RELS.find(
    (r) => r.toLowerCase() === text || r.slice('esriSpatialRel'.length).toLowerCase() === text,
  );
  if (!found) throw fail('spatialRel', `'${value}' is not supported; use one of ${SPATIAL_RELS.join(', ')}`);
  return found;
}

/** Metres per unit of the `units` ArcGIS documents for buffered queries. */
export const LINEAR_UNITS: Readonly<Record<LinearUnit, number>> = {
  esriSRUnit_Meter: 1,
  esriSRUnit_Kilometer: 1000,
  esriSRUnit_Foot: 0.3048,
  esriSRUnit_SurveyFoot: 1200 / 3937,
  esriSRUnit_StatuteMile: 1609.344,
  esriSRUnit_NauticalMile: 1852,
  esriSRUnit_USNauticalMile: 1853.248,
};

/**
 * `distance` with `units`: the filter becomes "within that distance of the geometry". Without
 * `units` the distance is in the unit of the filter geometry's spatial reference. A distance of 0 is
 * no buffer. Only the intersects relation is defined for a buffer here; others are refused.
 */
function normalizeDistance(params: QueryParams, spatialRel: SpatialRel): FilterDistance | null {
  const text = present(params.distance);
  const unitText = present(params.units);
  const units = unitText === undefined ? null : readUnit(unitText);
  if (text === undefined) return null;
  const value = readNumber('distance', text);
  if (value < 0) throw fail('distance', 'the distance must not be negative');
  if (value === 0) return null;
  if (spatialRel !== 'esriSpatialRelIntersects') {
    throw fail('distance', `a buffered filter needs spatialRel esriSpatialRelIntersects, not ${spatialRel}`);
  }
  return { value, units };
}

function readUnit(text: string): LinearUnit {
  const found = (Object.keys(LINEAR_UNITS) as LinearUnit[]).find(
    (u) => u.toLowerCase() === text.toLowerCase(),
  );
  if (!found) throw fail('units', `'${text}' is not one of ${Object.keys(LINEAR_UNITS).join(', ')}`);
  return found;
}
