import { arrayOf, complex, type TypeDef } from './model.js';

/** Tile cache descriptions; the same element names appear in a cache's conf.xml. */
export const CACHE_TYPES: TypeDef[] = [
  complex('TileCacheInfo', [
    'SpatialReference? SpatialReference',
    'TileOrigin? Point',
    'TileCols int',
    'TileRows int',
    'DPI int',
    'LODInfos? ArrayOfLODInfo',
    'PreciseDPI? double',
  ]),
  complex('LODInfo', ['LevelID int', 'Scale double', 'Resolution double']),
  arrayOf('ArrayOfLODInfo', 'LODInfo LODInfo'),
  complex('TileImageInfo', [
    'CacheTileFormat string',
    'CompressionQuality int',
    // A string on the wire ("true"/"false"), not a boolean.
    'Antialiasing string',
    'BandCount? int',
    'LERCError? double',
  ]),
  complex('CacheStorageInfo', ['StorageFormat geoMapCacheStorageFormat', 'PacketSize int']),
  complex('CacheControlInfo', ['ClientCachingAllowed boolean']),
  complex('LayerCacheInfo', ['LayerID int', 'HasCache boolean']),
  arrayOf('ArrayOfLayerCacheInfo', 'LayerCacheInfo LayerCacheInfo'),
  complex('CacheDescriptionInfo', [
    'TileCacheInfo TileCacheInfo',
    'TileImageInfo TileImageInfo',
    'LayerCacheInfos ArrayOfLayerCacheInfo',
    'CacheControlInfo CacheControlInfo',
    'ServiceType geoCachedMapServiceType',
  ]),
];
