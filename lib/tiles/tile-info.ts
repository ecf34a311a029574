import type { CacheDefinition } from './cache-definition.js';
import { storageFormatName } from './cache-definition.js';

/** REST `tileInfo` of a MapServer / ImageServer / tile layer resource. */
export interface RestTileInfo {
  rows: number;
  cols: number;
  dpi: number;
  format: string;
  compressionQuality: number;
  origin: { x: number; y: number };
  spatialReference: { wkid: number; latestWkid?: number; wkt?: string };
  lods: { level: number; resolution: number; scale: number }[];
}

export function restTileInfo(def: CacheDefinition): RestTileInfo {
  return {
    rows: def.tileRows,
    cols: def.tileCols,
    dpi: def.dpi,
    format: def.format,
    compressionQuality: def.compressionQuality,
    origin: { x: def.originX, y: def.originY },
    spatialReference: restSpatialReference(def),
    lods: def.lods.map((l) => ({ level: l.level, resolution: l.resolution, scale: l.scale })),
  };
}

/** REST `storageInfo` next to `tileInfo`. */
export function restStorageInfo(def: CacheDefinition): { storageFormat: string; packetSize: number } {
  return { storageFormat: storageFormatName(def.storage), packetSize: def.packetSize };
}

/** The scale range a cached service advertises: minScale is the smallest-scale (first) LOD. */
export function restScaleRange(def: CacheDefinition): { minScale: number; maxScale: number } {
  const first = def.lods[0];
  const last = def.lods[def.lods.length - 1];
  return { minScale: first?.scale ?? 0, maxScale: last?.scale ?? 0 };
}

function restSpatialReference(def: CacheDefinition): RestTileInfo['spatialReference'] {
  if (def.wkt && !def.wkid) return { wkid: 0, wkt: def.wkt };
  return def.latestWkid ? { wkid: def.wkid, latestWkid: def.latestWkid } : { wkid: def.wkid };
}

/** SOAP shapes as plain objects whose keys are the element names in schema order. */
export interface SoapLodInfo {
  LevelID: number;
  Scale: number;
  Resolution: number;
}

export interface SoapTileCacheInfo {
  SpatialReference: { WKID: number; LatestWKID?: number; WKT?: string };
  TileOrigin: { X: number; Y: number };
  TileCols: number;
  TileRows: number;
  DPI: number;
  LODInfos: SoapLodInfo[];
  PreciseDPI: number;
}

export function soapTileCacheInfo(def: CacheDefinition): SoapTileCacheInfo {
  const sr: SoapTileCacheInfo['SpatialReference'] = { WKID: def.wkid };
  if (def.latestWkid) sr.LatestWKID = def.latestWkid;
  if (def.wkt) sr.WKT = def.wkt;
  return {
    SpatialReference: sr,
    TileOrigin: { X: def.originX, Y: def.originY },
    TileCols: def.tileCols,
    TileRows: def.tileRows,
    DPI: Math.round(def.dpi),
    LODInfos: def.lods.map((l) => ({ LevelID: l.level, Scale: l.scale, Resolution: l.resolution })),
    PreciseDPI: def.dpi,
  };
}

export interface SoapTileImageInfo {
  CacheTileFormat: string;
  CompressionQuality: number;
  Antialiasing: boolean;
}

export function soapTileImageInfo(def: CacheDefinition): SoapTileImageInfo {
  return {
    CacheTileFormat: def.format,
    CompressionQuality: def.compressionQuality,
    Antialiasing: def.antialiasing,
  };
}

/** The spec's geoMapCacheStorageFormat has two values; both compact versions report Compact. */
export type GeoMapCacheStorageFormat = 'geoMapCacheStorageModeCompact' | 'geoMapCacheStorageModeExploded';

export interface SoapCacheStorageInfo {
  StorageFormat: GeoMapCacheStorageFormat;
  PacketSize: number;
}

export function soapCacheStorageInfo(def: CacheDefinition): SoapCacheStorageInfo {
  return {
    StorageFormat:
      def.storage === 'exploded' ? 'geoMapCacheStorageModeExploded' : 'geoMapCacheStorageModeCompact',
    PacketSize: def.packetSize,
  };
}
