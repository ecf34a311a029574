import { badRequest } from '../errors.js';
import type { GeoJSONGeometry, Position } from './geojson-types.js';
import { envelopeToPolygon, isEnvelope, isMultipoint, isPoint, isPolygon, isPolyline } from './kinds.js';
import { closeRing, ringSignedArea } from './point-in-polygon.js';
import { groupRings } from './rings.js';
import type { EsriGeometry, EsriPoint, EsriPolygon, SpatialReference } from './types.js';

/** A ring closed and turned to run counter-clockwise (ccw=true) or clockwise. */
function orientRing(ring: number[][], ccw: boolean): number[][] {
  const closed = closeRing(ring);
  return ringSignedArea(closed) > 0 === ccw ? closed : closed.reverse();
}

/**
 * Esri JSON → GeoJSON geometry (RFC 7946: exterior rings counter-clockwise, holes clockwise).
 * Holes are grouped into the outer ring that holds them; several outer rings give a MultiPolygon.
 * Returns null for an empty geometry, as GeoJSON features carry `geometry: null`.
 */
export function esriToGeoJSON(g: EsriGeometry): GeoJSONGeometry | null {
  if (isPoint(g)) {
    if (!Number.isFinite(g.x) || !Number.isFinite(g.y)) return null;
    return { type: 'Point', coordinates: typeof g.z === 'number' ? [g.x, g.y, g.z] : [g.x, g.y] };
  }
  if (isMultipoint(g)) {
    return g.points.length ? { type: 'MultiPoint', coordinates: g.points.map((p) => p.slice()) } : null;
  }
  if (isPolyline(g)) {
    const paths = g.paths.filter((p) => p.length > 0).map((p) => p.map((c) => c.slice()));
    if (paths.length === 0) return null;
    return paths.length === 1
      ? { type: 'LineString', coordinates: paths[0] }
      : { type: 'MultiLineString', coordinates: paths };
  }
  if (isPolygon(g) || isEnvelope(g)) {
    const rings = isPolygon(g) ? g.rings : envelopeToPolygon(g).rings;
    const polygons = groupRings(rings).map((group) => group.map((ring, i) => orientRing(ring, i === 0)));
    if (polygons.length === 0) return null;
    return polygons.length === 1
      ? { type: 'Polygon', coordinates: polygons[0] }
      : { type: 'MultiPolygon', coordinates: polygons };
  }
  return null;
}

/** Esri rings for GeoJSON polygons: outer rings clockwise, holes counter-clockwise, all closed. */
function polygonRings(polygons: Position[][][]): number[][][] {
  return polygons.flatMap((rings) =>
    rings.filter((r) => r.length > 0).map((ring, i) => orientRing(ring, i !== 0)),
  );
}

/** GeoJSON geometry → Esri JSON, with the spatial reference attached when one is given. */
export function geoJSONToEsri(g: GeoJSONGeometry, spatialReference?: SpatialReference): EsriGeometry {
  const out = convert(g);
  if (spatialReference) out.spatialReference = spatialReference;
  return out;
}

function convert(g: GeoJSONGeometry): EsriGeometry {
  switch (g.type) {
    case 'Point': {
      const p: EsriPoint = { x: g.coordinates[0], y: g.coordinates[1] };
      if (typeof g.coordinates[2] === 'number') p.z = g.coordinates[2];
      return p;
    }
    case 'MultiPoint':
      return { points: g.coordinates.map((c) => c.slice()) };
    case 'LineString':
      return { paths: [g.coordinates.map((c) => c.slice())] };
    case 'MultiLineString':
      return { paths: g.coordinates.map((l) => l.map((c) => c.slice())) };
    case 'Polygon':
      return { rings: polygonRings([g.coordinates]) } satisfies EsriPolygon;
    case 'MultiPolygon':
      return { rings: polygonRings(g.coordinates) } satisfies EsriPolygon;
    case 'GeometryCollection':
      return collectionToEsri(g.geometries);
    default:
      throw badRequest('Invalid geometry.', [
        `Unknown GeoJSON geometry type '${(g as { type: string }).type}'.`,
      ]);
  }
}

/** Esri has no collections: members of one dimension merge into one multi-part geometry. */
function collectionToEsri(members: GeoJSONGeometry[]): EsriGeometry {
  const parts = members.map(convert);
  if (parts.length > 0 && parts.every((p) => isPoint(p) || isMultipoint(p))) {
    return { points: parts.flatMap((p) => (isPoint(p) ? [[p.x, p.y]] : isMultipoint(p) ? p.points : [])) };
  }
  if (parts.length > 0 && parts.every(isPolyline)) return { paths: parts.flatMap((p) => p.paths) };
  if (parts.length > 0 && parts.every(isPolygon)) return { rings: parts.flatMap((p) => p.rings) };
  throw badRequest('Invalid geometry.', [
    'A GeometryCollection must hold members of one dimension (points, lines or polygons) to become Esri JSON.',
  ]);
}
