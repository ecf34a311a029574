import { badRequest } from '../errors.js';
import type {
  EsriEnvelope,
  EsriGeometry,
  EsriGeometryType,
  EsriMultipoint,
  EsriPoint,
  EsriPolygon,
  EsriPolyline,
} from './types.js';

/**
 * The kind an Esri JSON object declares by its keys (x, points, paths, rings, xmin: the first present
 * wins), before its values are checked; null when it has none of them.
 */
export function declaredGeometryType(v: object): EsriGeometryType | null {
  if ('x' in v) return 'esriGeometryPoint';
  if ('points' in v) return 'esriGeometryMultipoint';
  if ('paths' in v) return 'esriGeometryPolyline';
  if ('rings' in v) return 'esriGeometryPolygon';
  if ('xmin' in v) return 'esriGeometryEnvelope';
  return null;
}

/** Esri JSON carries no type tag: the geometry kind is told by which keys are present. */
export function geometryTypeOf(g: EsriGeometry): EsriGeometryType {
  if (isPoint(g)) return 'esriGeometryPoint';
  if (isMultipoint(g)) return 'esriGeometryMultipoint';
  if (isPolyline(g)) return 'esriGeometryPolyline';
  if (isPolygon(g)) return 'esriGeometryPolygon';
  if (isEnvelope(g)) return 'esriGeometryEnvelope';
  throw badRequest('Invalid geometry.', [
    'The geometry has none of x/y, points, paths, rings or xmin..ymax.',
  ]);
}

export const isPoint = (g: EsriGeometry): g is EsriPoint =>
  typeof (g as EsriPoint).x === 'number' && typeof (g as EsriPoint).y === 'number';

export const isMultipoint = (g: EsriGeometry): g is EsriMultipoint =>
  Array.isArray((g as EsriMultipoint).points);

export const isPolyline = (g: EsriGeometry): g is EsriPolyline => Array.isArray((g as EsriPolyline).paths);

export const isPolygon = (g: EsriGeometry): g is EsriPolygon => Array.isArray((g as EsriPolygon).rings);

export const isEnvelope = (g: EsriGeometry): g is EsriEnvelope =>
  typeof (g as EsriEnvelope).xmin === 'number' &&
  typeof (g as EsriEnvelope).ymin === 'number' &&
  typeof (g as EsriEnvelope).xmax === 'number' &&
  typeof (g as EsriEnvelope).ymax === 'number';

/** The closed ring of an envelope, clockwise as Esri outer rings are. */
export function envelopeToPolygon(e: EsriEnvelope): EsriPolygon {
  const ring = [
    [e.xmin, e.ymin],
    [e.xmin, e.ymax],
    [e.xmax, e.ymax],
    [e.xmax, e.ymin],
    [e.xmin, e.ymin],
  ];
  const polygon: EsriPolygon = { rings: [ring] };
  if (e.spatialReference) polygon.spatialReference = e.spatialReference;
  return polygon;
}

/** Whether a geometry has no coordinates at all (Esri allows empty paths, rings and NaN points). */
export function isEmptyGeometry(g: EsriGeometry): boolean {
  if (isPoint(g)) return !Number.isFinite(g.x) || !Number.isFinite(g.y);
  if (isMultipoint(g)) return g.points.length === 0;
  if (isPolyline(g)) return g.paths.every((p) => p.length === 0);
  if (isPolygon(g)) return g.rings.every((r) => r.length === 0);
  if (isEnvelope(g)) return !Number.isFinite(g.xmin) || !Number.isFinite(g.ymin);
  return true;
}
