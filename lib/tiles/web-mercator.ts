import { badRequest } from '../errors.js';
import type { Bounds } from '../geometry/types.js';

/**
 * The standard Web Mercator tiling scheme (wkid 102100 / latestWkid 3857): 256-px tiles at 96 DPI,
 * origin at the top-left corner of the world square, levels 0–23. Level, row and column equal XYZ z, y, x.
 */
export interface Lod {
  level: number;
  scale: number;
  resolution: number;
}

export const TILE_SIZE = 256;
export const TILE_DPI = 96;
export const ORIGIN_X = -20037508.342787;
export const ORIGIN_Y = 20037508.342787;
/** Half the side of the world square in metres (πR with R = 6378137). */
export const WORLD_HALF = 20037508.342789244;
const EARTH_RADIUS = 6378137;

/**
 * Esri's published LODs. Levels 0–19 carry the digits of the cache conf.xml, 20–23 the tile-package
 * root.json digits; clients compare them with a relative tolerance, so keep them verbatim.
 */
const LOD_VALUES: readonly (readonly [number, number])[] = [
  [591657527.591555, 156543.03392800014],
  [295828763.79577702, 78271.516963999937],
  [147914381.89788899, 39135.758482000092],
  [73957190.948944002, 19567.879240999919],
  [36978595.474472001, 9783.9396204999593],
  [18489297.737236001, 4891.9698102499797],
  [9244648.8686180003, 2445.9849051249898],
  [4622324.4343090001, 1222.9924525624949],
  [2311162.2171550002, 611.49622628137968],
  [1155581.108577, 305.74811314055756],
  [577790.55428899999, 152.87405657041106],
  [288895.27714399999, 76.437028285073239],
  [144447.638572, 38.21851414253662],
  [72223.819285999998, 19.10925707126831],
  [36111.909642999999, 9.5546285356341549],
  [18055.954822, 4.7773142679493699],
  [9027.9774109999998, 2.3886571339746849],
  [4513.9887049999998, 1.1943285668550503],
  [2256.994353, 0.59716428355981721],
  [1128.4971760000001, 0.29858214164761665],
  [564.248588, 0.149291070823808],
  [282.124294, 0.0746455354119042],
  [141.062147, 0.0373227677059521],
  [70.5310735, 0.018661383852976],
];

export const WEB_MERCATOR_LODS: readonly Lod[] = LOD_VALUES.map(([scale, resolution], level) => ({
  level,
  scale,
  resolution,
}));

export const MAX_LEVEL = WEB_MERCATOR_LODS.length - 1;

export function lodOf(level: number): Lod {
  const lod = WEB_MERCATOR_LODS[level];
  if (!lod) throw badRequest(`Level ${level} is outside the tiling scheme (0–${MAX_LEVEL}).`);
  return lod;
}

/** Tiles along one side of the world at a level. */
export const matrixSize = (level: number): number => 2 ** level;

/** Ground size of one tile side in metres. */
export const tileSpan = (level: number): number => lodOf(level).resolution * TILE_SIZE;

export interface TileAddress {
  level: number;
  row: number;
  col: number;
}

/** The tile's envelope in EPSG:3857 as [xmin, ymin, xmax, ymax]. */
export function tileBounds({ level, row, col }: TileAddress): Bounds {
  const span = tileSpan(level);
  const xmin = ORIGIN_X + col * span;
  const ymax = ORIGIN_Y - row * span;
  return [xmin, ymax - span, xmin + span, ymax];
}

/** The tile containing a map point at a level (clamped to the world's tile matrix). */
export function tileAt(x: number, y: number, level: number): TileAddress {
  const span = tileSpan(level);
  const last = matrixSize(level) - 1;
  const col = clamp(Math.floor((x - ORIGIN_X) / span), 0, last);
  const row = clamp(Math.floor((ORIGIN_Y - y) / span), 0, last);
  return { level, row, col };
}

export interface TileRange {
  level: number;
  minRow: number;
  maxRow: number;
  minCol: number;
  maxCol: number;
}

/**
 * The tiles covering an extent at a level. An extent edge lying exactly on a tile boundary does not
 * pull in the neighbouring tile; a degenerate extent (a point) still covers its one tile.
 */
export function tileRange([xmin, ymin, xmax, ymax]: Bounds, level: number): TileRange {
  const span = tileSpan(level);
  const last = matrixSize(level) - 1;
  // Edges within a billionth of a tile of a boundary count as on it (float noise of tileBounds).
  const eps = 1e-9;
  const minCol = clamp(Math.floor((xmin - ORIGIN_X) / span + eps), 0, last);
  const minRow = clamp(Math.floor((ORIGIN_Y - ymax) / span + eps), 0, last);
  const maxCol = clamp(Math.max(Math.ceil((xmax - ORIGIN_X) / span - eps) - 1, minCol), 0, last);
  const maxRow = clamp(Math.max(Math.ceil((ORIGIN_Y - ymin) / span - eps) - 1, minRow), 0, last);
  return { level, minRow, maxRow, minCol, maxCol };
}

export const rangeTileCount = (r: TileRange): number => (r.maxRow - r.minRow + 1) * (r.maxCol - r.minCol + 1);

/** Total tiles covering an extent over levels minLevel..maxLevel inclusive. */
export function countTiles(extent: Bounds, minLevel: number, maxLevel: number): number {
  let total = 0;
  for (let level = minLevel; level <= maxLevel; level++) total += rangeTileCount(tileRange(extent, level));
  return total;
}

/** Every tile of a range, row by row (the order bundles are laid out in). */
export function* tilesInRange(r: TileRange): Generator<TileAddress> {
  for (let row = r.minRow; row <= r.maxRow; row++) {
    for (let col = r.minCol; col <= r.maxCol; col++) yield { level: r.level, row, col };
  }
}

/** The level whose LOD matches a scale within a relative tolerance, or undefined. */
export function levelForScale(scale: number, tolerance = 1e-6): number | undefined {
  const lod = WEB_MERCATOR_LODS.find((l) => Math.abs(l.scale - scale) <= tolerance * l.scale);
  return lod?.level;
}

export function lonLatToMercator(lon: number, lat: number): [number, number] {
  const clampedLat = clamp(lat, -85.0511287798066, 85.0511287798066);
  const x = (lon * Math.PI * EARTH_RADIUS) / 180;
  const y = EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (clampedLat * Math.PI) / 360));
  return [x, y];
}

export function mercatorToLonLat(x: number, y: number): [number, number] {
  const lon = (x / EARTH_RADIUS) * (180 / Math.PI);
  const lat = (2 * Math.atan(Math.exp(y / EARTH_RADIUS)) - Math.PI / 2) * (180 / Math.PI);
  return [lon, lat];
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), hi);
}
