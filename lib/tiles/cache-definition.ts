import { badRequest } from '../errors.js';
import type { Bounds } from '../geometry/types.js';
import { type Lod, lodOf, ORIGIN_X, ORIGIN_Y, TILE_DPI, TILE_SIZE } from './web-mercator.js';

/** How tiles are stored: Compact Cache V2 bundles, V1 bundles (+ .bundlx, in .tpk) or one file per tile. */
export type CacheStorage = 'compactV2' | 'compactV1' | 'exploded';

/** CacheTileFormat values as conf.xml and REST tileInfo spell them. */
export type CacheTileFormat = 'PNG' | 'PNG8' | 'PNG24' | 'PNG32' | 'JPEG' | 'MIXED' | 'LERC' | 'pbf';

/** Everything a cache's metadata files and service JSON describe, in one plain object. */
export interface CacheDefinition {
  wkid: number;
  latestWkid?: number;
  /** WKT of the tiling spatial reference when it is not a well-known id. */
  wkt?: string;
  originX: number;
  originY: number;
  tileRows: number;
  tileCols: number;
  dpi: number;
  lods: Lod[];
  format: CacheTileFormat;
  compressionQuality: number;
  antialiasing: boolean;
  storage: CacheStorage;
  packetSize: number;
  /** The data extent (conf.cdi); absent when unknown. */
  extent?: Bounds;
}

export interface WebMercatorCacheOptions {
  minLevel: number;
  maxLevel: number;
  extent?: Bounds;
  format?: CacheTileFormat;
  storage?: CacheStorage;
  compressionQuality?: number;
}

/** A cache on the standard Web Mercator scheme with levels minLevel..maxLevel. */
export function webMercatorCache(options: WebMercatorCacheOptions): CacheDefinition {
  const lods: Lod[] = [];
  for (let level = options.minLevel; level <= options.maxLevel; level++) lods.push({ ...lodOf(level) });
  return {
    wkid: 102100,
    latestWkid: 3857,
    originX: ORIGIN_X,
    originY: ORIGIN_Y,
    tileRows: TILE_SIZE,
    tileCols: TILE_SIZE,
    dpi: TILE_DPI,
    lods,
    format: options.format ?? 'PNG',
    compressionQuality: options.compressionQuality ?? 0,
    antialiasing: true,
    storage: options.storage ?? 'compactV2',
    packetSize: 128,
    extent: options.extent,
  };
}

/** The conf.xml / REST storage format string of a storage kind. */
export function storageFormatName(storage: CacheStorage): string {
  if (storage === 'compactV2') return 'esriMapCacheStorageModeCompactV2';
  if (storage === 'compactV1') return 'esriMapCacheStorageModeCompact';
  return 'esriMapCacheStorageModeExploded';
}

/** Reads a storage format string from conf.xml, root.json or REST (any vendor prefix, V2 spelled either way). */
export function parseStorageFormat(name: string): CacheStorage {
  const n = name.toLowerCase();
  if (n.endsWith('exploded')) return 'exploded';
  if (n.endsWith('compactv2')) return 'compactV2';
  if (n.endsWith('compact')) return 'compactV1';
  throw badRequest(`Unknown cache storage format: ${name}`);
}
