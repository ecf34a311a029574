import { describe, expect, it } from 'vitest';
import { webMercatorCache } from '../../../lib/tiles/cache-definition.js';
import {
  restScaleRange,
  restStorageInfo,
  restTileInfo,
  soapCacheStorageInfo,
  soapTileCacheInfo,
  soapTileImageInfo,
} from '../../../lib/tiles/tile-info.js';

const def = webMercatorCache({ minLevel: 0, maxLevel: 19 });

describe('REST tileInfo', () => {
  it('describes 256-px tiles at 96 DPI from the top-left origin in 102100/3857', () => {
    const info = restTileInfo(def);
    expect(info).toMatchObject({
      rows: 256,
      cols: 256,
      dpi: 96,
      format: 'PNG',
      origin: { x: -20037508.342787, y: 20037508.342787 },
      spatialReference: { wkid: 102100, latestWkid: 3857 },
    });
  });

  it('lists lods as level, resolution, scale', () => {
    expect(restTileInfo(def).lods[0]).toEqual({
      level: 0,
      resolution: 156543.03392800014,
      scale: 591657527.591555,
    });
    expect(restTileInfo(def).lods).toHaveLength(20);
  });

  it('reports compact V2 storage with packets of 128', () => {
    expect(restStorageInfo(def)).toEqual({
      storageFormat: 'esriMapCacheStorageModeCompactV2',
      packetSize: 128,
    });
  });

  it('takes minScale from the first LOD and maxScale from the last', () => {
    expect(restScaleRange(def)).toEqual({ minScale: 591657527.591555, maxScale: 1128.4971760000001 });
  });
});

describe('SOAP cache descriptions', () => {
  it('gives TileCacheInfo keys in schema order', () => {
    expect(Object.keys(soapTileCacheInfo(def))).toEqual([
      'SpatialReference',
      'TileOrigin',
      'TileCols',
      'TileRows',
      'DPI',
      'LODInfos',
      'PreciseDPI',
    ]);
  });

  it('gives LODInfo as LevelID, Scale, Resolution', () => {
    expect(soapTileCacheInfo(def).LODInfos[10]).toEqual({
      LevelID: 10,
      Scale: 577790.554289,
      Resolution: 152.87405657041106,
    });
  });

  it('reports both compact versions as geoMapCacheStorageModeCompact', () => {
    expect(soapCacheStorageInfo(def)).toEqual({
      StorageFormat: 'geoMapCacheStorageModeCompact',
      PacketSize: 128,
    });
    expect(soapCacheStorageInfo({ ...def, storage: 'exploded' }).StorageFormat).toBe(
      'geoMapCacheStorageModeExploded',
    );
  });

  it('gives TileImageInfo from the cache format', () => {
    expect(soapTileImageInfo(def)).toEqual({
      CacheTileFormat: 'PNG',
      CompressionQuality: 0,
      Antialiasing: true,
    });
  });
});
