import type { GeoJSONGeometry, Position } from './geojson-types.js';
import { isEnvelope, isMultipoint, isPoint, isPolygon, isPolyline } from './kinds.js';
import type { EsriGeometry, EsriPoint } from './types.js';

/**
 * Z and M of stored shapes. Positions follow Esri JSON: [x, y], then z when the layout has z, then m
 * when it has m (an XYM vertex is [x, y, m]); points carry `z` and `m` keys. A layer's shapes all have
 * its layout: a vertex without a z gets 0 (ArcGIS's default z), one without an m gets NaN (no
 * measure, written as null in JSON).
 */
export interface Dimensions {
  hasZ: boolean;
  hasM: boolean;
}

export const XY: Dimensions = { hasZ: false, hasM: false };

/** One position of layout `from` in layout `to` (an ordinate the position lacks counts as missing). */
export function fitPosition(p: readonly number[], from: Dimensions, to: Dimensions): number[] {
  const out = [p[0], p[1]];
  if (to.hasZ) out.push(from.hasZ && typeof p[2] === 'number' ? p[2] : 0);
  const m = from.hasM ? p[from.hasZ ? 3 : 2] : undefined;
  if (to.hasM) out.push(typeof m === 'number' ? m : Number.NaN);
  return out;
}

const sameLayout = (a: Dimensions, b: Dimensions) => a.hasZ === b.hasZ && a.hasM === b.hasM;

/** A GeoJSON geometry whose positions have layout `from`, with every position in layout `to`. */
export function fitGeoJSON(g: GeoJSONGeometry, from: Dimensions, to: Dimensions): GeoJSONGeometry {
  if (sameLayout(from, to)) return g;
  const refit = (p: Position) => fitPosition(p, from, to);
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: refit(g.coordinates) };
    case 'MultiPoint':
    case 'LineString':
      return { type: g.type, coordinates: g.coordinates.map(refit) } as GeoJSONGeometry;
    case 'MultiLineString':
    case 'Polygon':
      return { type: g.type, coordinates: g.coordinates.map((l) => l.map(refit)) } as GeoJSONGeometry;
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map((l) => l.map(refit))) };
    case 'GeometryCollection':
      return { type: 'GeometryCollection', geometries: g.geometries.map((m) => fitGeoJSON(m, from, to)) };
  }
}

/** A point from a position of layout `d`, with its z and m keys. */
export function pointOf(p: readonly number[], d: Dimensions): EsriPoint {
  const out: EsriPoint = { x: p[0], y: p[1] };
  if (d.hasZ) out.z = p[2];
  if (d.hasM) out.m = p[d.hasZ ? 3 : 2];
  return out;
}

/**
 * An Esri geometry stored in layout `from` with only the ordinates of layout `to` (the answer of a
 * query: z with returnZ on a layer with z, m with returnM on one with m). A point's missing z or m
 * key reads as 0 or NaN, as fitPosition does for vertices.
 */
export function fitEsri(g: EsriGeometry, from: Dimensions, to: Dimensions): EsriGeometry {
  if (isPoint(g)) {
    if (!to.hasZ && !to.hasM && g.z === undefined && g.m === undefined) return g;
    const out: EsriGeometry = { x: g.x, y: g.y };
    if (to.hasZ) out.z = typeof g.z === 'number' ? g.z : 0;
    if (to.hasM) out.m = typeof g.m === 'number' ? g.m : Number.NaN;
    if (g.spatialReference) out.spatialReference = g.spatialReference;
    return out;
  }
  if (isEnvelope(g)) return g;
  // Shapes stored before z and m were kept may carry a z their layer does not declare.
  if (sameLayout(from, to) && firstVertexLength(g) === 2 + (to.hasZ ? 1 : 0) + (to.hasM ? 1 : 0)) return g;
  const refit = (p: number[]) => fitPosition(p, from, to);
  const sr = g.spatialReference ? { spatialReference: g.spatialReference } : {};
  if (isMultipoint(g)) return { points: g.points.map(refit), ...sr };
  if (isPolyline(g)) return { paths: g.paths.map((l) => l.map(refit)), ...sr };
  if (isPolygon(g)) return { rings: g.rings.map((l) => l.map(refit)), ...sr };
  return g;
}

function firstVertexLength(g: EsriGeometry): number {
  const parts = isMultipoint(g) ? [g.points] : isPolyline(g) ? g.paths : isPolygon(g) ? g.rings : [];
  for (const part of parts) if (part.length > 0) return part[0].length;
  return 2;
}
