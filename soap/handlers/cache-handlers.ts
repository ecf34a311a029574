/**
 * The tile cache operations. A hosted service has at most one fused cache (no per-layer caches),
 * read through a MapTileSource. On an uncached service the yes/no questions answer false and the
 * ones that need a cache fault saying it has none; a tile the cache does not hold is a fault too
 * (404), as the REST tile endpoint answers 404.
 */
import { GeoError } from '../../lib/errors.js';
import type { CacheDefinition } from '../../lib/tiles/cache-definition.js';
import { soapCacheStorageInfo, soapTileCacheInfo, soapTileImageInfo } from '../../lib/tiles/tile-info.js';
import { matrixSize } from '../../lib/tiles/web-mercator.js';
import { clientFault } from '../fault.js';
import type { TileCacheInfo, TileImageInfo } from '../schema/generated-types.js';
import type { SoapContext, SoapHandlerGroup } from '../service-types.js';
import { type HostedMap, layerOf, type MapServiceDeps, openMap } from './map-context.js';
import { pointN, toSoapSpatialReference } from './wire-geometry.js';

export type CacheOperations =
  | 'IsFixedScaleMap'
  | 'HasSingleFusedMapCache'
  | 'GetTileCacheInfo'
  | 'GetMapTile'
  | 'HasLayerCache'
  | 'GetLayerTile'
  | 'GetVirtualCacheDirectory'
  | 'GetCacheName'
  | 'GetTileImageInfo'
  | 'GetCacheControlInfo'
  | 'GetCacheDescriptionInfo'
  | 'GetCacheStorageInfo';

export function tileCacheInfo(def: CacheDefinition): TileCacheInfo {
  const info = soapTileCacheInfo(def);
  return {
    SpatialReference: toSoapSpatialReference({
      wkid: info.SpatialReference.WKID,
      latestWkid: info.SpatialReference.LatestWKID,
      wkt: info.SpatialReference.WKT,
    }),
    TileOrigin: pointN(info.TileOrigin.X, info.TileOrigin.Y),
    TileCols: info.TileCols,
    TileRows: info.TileRows,
    DPI: info.DPI,
    LODInfos: info.LODInfos,
    PreciseDPI: info.PreciseDPI,
  };
}

export function tileImageInfo(def: CacheDefinition): TileImageInfo {
  const info = soapTileImageInfo(def);
  return { ...info, Antialiasing: String(info.Antialiasing) };
}

/** The REST tile root of the service, which is where its cache is served from. */
export const restTileRoot = (endpointUrl: string): string =>
  `${endpointUrl.replace(/\/services\/Hosted\//, '/rest/services/Hosted/')}/tile`;

const notCached = (map: HostedMap) =>
  clientFault(`Map service Hosted/${map.name} is not cached; it has no tile cache.`);

const FORMATS_OF: Record<string, string[]> = {
  PNG: ['png', 'png8', 'png24', 'png32'],
  PNG8: ['png', 'png8'],
  PNG24: ['png', 'png24'],
  PNG32: ['png', 'png32'],
  JPEG: ['jpg', 'jpeg'],
  MIXED: ['png', 'jpg', 'jpeg', 'mixed'],
};

export function checkTileAddress(
  def: CacheDefinition,
  level: number,
  row: number,
  col: number,
  format?: string,
) {
  if (!def.lods.some((l) => l.level === level)) {
    const levels = def.lods.map((l) => l.level);
    throw clientFault(
      `Invalid level: ${level}; the cache has levels ${Math.min(...levels)} to ${Math.max(...levels)}.`,
    );
  }
  const webMercator = def.wkid === 102100 || def.wkid === 3857;
  const limit = webMercator ? matrixSize(level) : Number.MAX_SAFE_INTEGER;
  if (!Number.isInteger(row) || row < 0 || row >= limit)
    throw clientFault(`Invalid row: ${row} at level ${level}.`);
  if (!Number.isInteger(col) || col < 0 || col >= limit)
    throw clientFault(`Invalid column: ${col} at level ${level}.`);
  if (format && !(FORMATS_OF[def.format] ?? [def.format.toLowerCase()]).includes(format.toLowerCase())) {
    throw clientFault(`Invalid format: ${format}; the cache holds ${def.format} tiles.`);
  }
}

export function createCacheHandlers(deps: MapServiceDeps): SoapHandlerGroup<CacheOperations, unknown> {
  const cacheOf = async (ctx: SoapContext<unknown>, mapName: string, withoutLayers = false) => {
    const map = await openMap(deps, ctx.serviceName, mapName, { withoutLayers });
    return { map, def: map.cache?.definition ?? null };
  };
  const requireCache = async (ctx: SoapContext<unknown>, mapName: string, withoutLayers = false) => {
    const { map } = await cacheOf(ctx, mapName, withoutLayers);
    if (!map.cache) throw notCached(map);
    return { map, cache: map.cache, def: map.cache.definition };
  };
  return {
    IsFixedScaleMap: async (q, ctx) => (await cacheOf(ctx, q.MapName)).def !== null,
    HasSingleFusedMapCache: async (q, ctx) => (await cacheOf(ctx, q.MapName)).def !== null,
    GetTileCacheInfo: async (q, ctx) => tileCacheInfo((await requireCache(ctx, q.MapName)).def),
    async GetMapTile(q, ctx) {
      // A tile needs the cache only: the layer rows are not read on this hot path.
      const { cache, def } = await requireCache(ctx, q.MapName, true);
      checkTileAddress(def, q.Level, q.Row, q.Column, q.Format);
      const tile = await deps.tiles.readTile(cache, q.Level, q.Row, q.Column);
      if (!tile) {
        throw new GeoError({
          code: 404,
          message: `Tile not found: level ${q.Level}, row ${q.Row}, column ${q.Column}.`,
          details: ['The cache holds no tile at this address (no data there, or the level was not built).'],
        });
      }
      return tile;
    },
    async HasLayerCache(q, ctx) {
      layerOf((await cacheOf(ctx, q.MapName)).map, q.LayerID);
      return false;
    },
    async GetLayerTile(q, ctx) {
      const { map } = await cacheOf(ctx, q.MapName);
      layerOf(map, q.LayerID);
      throw clientFault(
        `Layer ${q.LayerID} has no layer cache; the service has a single fused cache or none.`,
      );
    },
    async GetVirtualCacheDirectory(q, ctx) {
      const { map } = await requireCache(ctx, q.MapName);
      if (q.LayerID >= 0) layerOf(map, q.LayerID);
      return restTileRoot(ctx.endpointUrl);
    },
    async GetCacheName(q, ctx) {
      const { map } = await requireCache(ctx, q.MapName);
      if (q.LayerID >= 0) layerOf(map, q.LayerID);
      return map.cache?.name ?? map.name;
    },
    GetTileImageInfo: async (q, ctx) => tileImageInfo((await requireCache(ctx, q.MapName)).def),
    GetCacheControlInfo: async (q, ctx) => {
      await requireCache(ctx, q.MapName);
      return { ClientCachingAllowed: true };
    },
    async GetCacheDescriptionInfo(q, ctx) {
      const { map, def } = await requireCache(ctx, q.MapName);
      return {
        TileCacheInfo: tileCacheInfo(def),
        TileImageInfo: tileImageInfo(def),
        LayerCacheInfos: map.layers
          .filter((l) => !l.isTable)
          .map((l) => ({ LayerID: l.id, HasCache: false })),
        CacheControlInfo: { ClientCachingAllowed: true },
        ServiceType: 'geoSingleFusedMapCache',
      };
    },
    GetCacheStorageInfo: async (q, ctx) => soapCacheStorageInfo((await requireCache(ctx, q.MapName)).def),
  };
}
