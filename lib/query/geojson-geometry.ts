import type { EsriGeometry } from '../geometry/types.js';

/**
 * Esri JSON geometry to a GeoJSON geometry (RFC 7946). Esri polygons are a flat list of rings,
 * outer rings clockwise and holes counter-clockwise; GeoJSON wants each outer ring with its
 * holes, outer rings counter-clockwise. Holes go to the smallest outer ring that holds them.
 */
export type GeoJsonGeometry =
  | { type: 'Point'; coordinates: number[] }
  | { type: 'MultiPoint'; coordinates: number[][] }
  | { type: 'LineString'; coordinates: number[][] }
  | { type: 'MultiLineString'; coordinates: number[][][] }
  | { type: 'Polygon'; coordinates: number[][][] }
  | { type: 'MultiPolygon'; coordinates: number[][][][] };

export function toGeoJsonGeometry(g: EsriGeometry | null | undefined): GeoJsonGeometry | null {
  if (!g) return null;
  if ('x' in g) {
    if (g.x === null || Number.isNaN(g.x)) return null;
    return { type: 'Point', coordinates: g.z === undefined ? [g.x, g.y] : [g.x, g.y, g.z] };
  }
  if ('points' in g) return g.points.length ? { type: 'MultiPoint', coordinates: g.points.map(xyz) } : null;
  if ('paths' in g) {
    const paths = g.paths.filter((p) => p.length > 1).map((p) => p.map(xyz));
    if (paths.length === 0) return null;
    return paths.length === 1
      ? { type: 'LineString', coordinates: paths[0] }
      : { type: 'MultiLineString', coordinates: paths };
  }
  if ('rings' in g) return polygon(g.rings.filter((r) => r.length >= 4).map((r) => r.map(xyz)));
  const { xmin, ymin, xmax, ymax } = g;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [xmin, ymin],
        [xmax, ymin],
        [xmax, ymax],
        [xmin, ymax],
        [xmin, ymin],
      ],
    ],
  };
}

/** Keeps x, y and z; m has no place in GeoJSON. */
const xyz = (p: number[]): number[] =>
  p.length > 2 && p[2] !== null && p[2] !== undefined ? p.slice(0, 3) : p.slice(0, 2);

function polygon(rings: number[][][]): GeoJsonGeometry | null {
  const outers: number[][][][] = [];
  const holes: number[][][] = [];
  for (const ring of rings) {
    // Esri outer rings are clockwise: negative signed area.
    if (signedArea(ring) < 0) outers.push([ring.slice().reverse()]);
    else holes.push(ring);
  }
  // A lone counter-clockwise ring is a polygon written the GeoJSON way; keep it as an outer ring.
  if (outers.length === 0) {
    if (holes.length === 0) return null;
    return holes.length === 1
      ? { type: 'Polygon', coordinates: [holes[0]] }
      : { type: 'MultiPolygon', coordinates: holes.map((h) => [h]) };
  }
  for (const hole of holes) {
    const owner = outers
      .filter((o) => containsPoint(o[0], hole[0]))
      .sort((a, b) => Math.abs(signedArea(a[0])) - Math.abs(signedArea(b[0])))[0];
    if (owner) owner.push(hole.slice().reverse());
    else outers.push([hole]);
  }
  return outers.length === 1
    ? { type: 'Polygon', coordinates: outers[0] }
    : { type: 'MultiPolygon', coordinates: outers };
}

/** Shoelace formula: positive for counter-clockwise rings. */
function signedArea(ring: number[][]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  }
  return sum / 2;
}

/** Ray casting. */
function containsPoint(ring: number[][], [x, y]: number[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
