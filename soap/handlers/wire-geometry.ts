/**
 * SOAP geometries (PointN, MultipointN, PolylineN, PolygonN, EnvelopeN) to and from the Esri JSON
 * shapes lib/geometry works on, and spatial references both ways. The binary (…B) forms carry
 * ESRI shape buffers, which no client of ours sends; they are refused with a fault that says so.
 */
import type { EsriGeometry, SpatialReference as EsriSpatialReference } from '../../lib/geometry/types.js';
import { clientFault } from '../fault.js';
import type {
  AnyGeometry,
  AnyPath,
  EnvelopeN,
  Point,
  PointN,
  Ring,
  SpatialReference,
  Tagged,
} from '../schema/generated-types.js';

const GEOGRAPHIC_WKIDS = new Set([4326, 4269, 4267, 4258, 4283, 4617]);

export function toSoapSpatialReference(sr: EsriSpatialReference): SpatialReference {
  const wkid = sr.wkid ?? sr.latestWkid;
  const geographic = wkid !== undefined && GEOGRAPHIC_WKIDS.has(wkid);
  const body = {
    ...(sr.wkt && !wkid ? { WKT: sr.wkt } : {}),
    ...(wkid !== undefined ? { WKID: wkid } : {}),
    ...(sr.latestWkid !== undefined && sr.latestWkid !== wkid ? { LatestWKID: sr.latestWkid } : {}),
  };
  return geographic
    ? { $type: 'GeographicCoordinateSystem', ...body }
    : { $type: 'ProjectedCoordinateSystem', ...body };
}

export function fromSoapSpatialReference(sr: SpatialReference | undefined): EsriSpatialReference | null {
  if (!sr) return null;
  const out: EsriSpatialReference = {};
  if (sr.WKID) out.wkid = sr.WKID;
  if (sr.LatestWKID) out.latestWkid = sr.LatestWKID;
  if (!sr.WKID && sr.WKT) out.wkt = sr.WKT;
  return Object.keys(out).length ? out : null;
}

const binary = (type: string) =>
  clientFault(`Geometry type ${type} is not supported; send the normalized (…N) form.`);

function xyOf(p: Point): [number, number] {
  if (p.$type !== 'PointN') throw binary(p.$type);
  return [p.X, p.Y];
}

/** A path's vertices: its points, or the ends of its segments (curves are taken as chords). */
function pathCoordinates(path: AnyPath | Ring): number[][] {
  if (path.PointArray?.length) return path.PointArray.map(xyOf);
  const segments = path.SegmentArray ?? [];
  if (segments.length === 0) return [];
  return [xyOf(segments[0].FromPoint), ...segments.map((s) => xyOf(s.ToPoint))];
}

export function toEsriGeometry(g: AnyGeometry): EsriGeometry {
  switch (g.$type) {
    case 'PointN':
      return { x: g.X, y: g.Y };
    case 'EnvelopeN':
      return { xmin: g.XMin, ymin: g.YMin, xmax: g.XMax, ymax: g.YMax };
    case 'MultipointN':
      return { points: (g.PointArray ?? []).map(xyOf) };
    case 'PolylineN':
      return { paths: g.PathArray.map(pathCoordinates) };
    case 'PolygonN':
      return { rings: g.RingArray.map(pathCoordinates) };
    case 'Path':
      return { paths: [pathCoordinates(g)] };
    case 'Ring':
      return { rings: [pathCoordinates(g)] };
    default:
      throw binary(g.$type ?? 'Geometry');
  }
}

/** The spatial reference a SOAP geometry declares, if any. */
export function geometrySpatialReference(g: AnyGeometry): EsriSpatialReference | null {
  const sr = (g as { SpatialReference?: SpatialReference }).SpatialReference;
  return fromSoapSpatialReference(sr);
}

export const pointN = (x: number, y: number, sr?: SpatialReference): Tagged<PointN> => ({
  $type: 'PointN',
  X: x,
  Y: y,
  ...(sr ? { SpatialReference: sr } : {}),
});

export function envelopeN(
  [xmin, ymin, xmax, ymax]: readonly number[],
  sr?: EsriSpatialReference,
): Tagged<EnvelopeN> {
  return {
    $type: 'EnvelopeN',
    XMin: xmin,
    YMin: ymin,
    XMax: xmax,
    YMax: ymax,
    ...(sr ? { SpatialReference: toSoapSpatialReference(sr) } : {}),
  };
}

const points = (coords: number[][]): Point[] => coords.map(([x, y]) => pointN(x, y));

export function toSoapGeometry(g: EsriGeometry, sr?: EsriSpatialReference): AnyGeometry {
  const SpatialReference = sr ? toSoapSpatialReference(sr) : undefined;
  const flags = { HasID: false, HasZ: false, HasM: false };
  if ('x' in g) return pointN(g.x, g.y, SpatialReference);
  if ('xmin' in g) return envelopeN([g.xmin, g.ymin, g.xmax, g.ymax], sr);
  if ('points' in g)
    return { $type: 'MultipointN', ...flags, PointArray: points(g.points), SpatialReference };
  if ('paths' in g) {
    return {
      $type: 'PolylineN',
      ...flags,
      PathArray: g.paths.map((p) => ({ PointArray: points(p) })),
      SpatialReference,
    };
  }
  return {
    $type: 'PolygonN',
    ...flags,
    RingArray: g.rings.map((r) => ({ PointArray: points(r) })),
    SpatialReference,
  };
}
