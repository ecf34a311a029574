/** The MapServer resource JSON of a cached (tiled) hosted map service, from its cache definition. */
import type { TileCacheRow } from '../../db/repositories/tile-caches.js';
import { type Bounds, WEB_MERCATOR } from '../../lib/geometry/types.js';
import { restScaleRange, restStorageInfo, restTileInfo } from '../../lib/tiles/tile-info.js';
import { WORLD_HALF } from '../../lib/tiles/web-mercator.js';
import { EXPORT_IMAGE_FORMATS, MAP_CAPABILITIES, MAP_QUERY_FORMATS } from './dynamic-map-json.js';

export interface MapServiceLayer {
  id: number;
  name: string;
  geometryType?: string;
  drawingInfo?: unknown;
}

const envelope = (b: Bounds | undefined) => {
  const [xmin, ymin, xmax, ymax] = b ?? [-WORLD_HALF, -WORLD_HALF, WORLD_HALF, WORLD_HALF];
  return { xmin, ymin, xmax, ymax, spatialReference: WEB_MERCATOR };
};

export const mapServiceLayers = (cache: TileCacheRow): MapServiceLayer[] =>
  (cache.service.layers as MapServiceLayer[] | undefined) ?? [];

/**
 * `drawable`: the feature service the cache was drawn from is ready, so the service also exports,
 * identifies, finds and queries from that data, as a cached ArcGIS map service with its data does.
 */
export function mapServerJson(cache: TileCacheRow, drawable = false): Record<string, unknown> {
  const def = cache.definition;
  const { minScale, maxScale } = restScaleRange(def);
  const service = cache.service;
  return {
    currentVersion: 11.1,
    serviceDescription: String(service.serviceDescription ?? ''),
    mapName: 'Layers',
    description: String(service.description ?? ''),
    copyrightText: String(service.copyrightText ?? ''),
    supportsDynamicLayers: false,
    layers: mapServiceLayers(cache).map((l) => ({
      id: l.id,
      name: l.name,
      parentLayerId: -1,
      defaultVisibility: true,
      subLayerIds: null,
      minScale,
      maxScale,
      type: 'Feature Layer',
      geometryType: l.geometryType,
    })),
    tables: [],
    spatialReference: WEB_MERCATOR,
    singleFusedMapCache: true,
    tileInfo: restTileInfo(def),
    storageInfo: restStorageInfo(def),
    initialExtent: envelope(def.extent),
    fullExtent: envelope(def.extent),
    minScale,
    maxScale,
    minLOD: def.lods[0]?.level ?? 0,
    maxLOD: def.lods[def.lods.length - 1]?.level ?? 0,
    units: 'esriMeters',
    // The formats export draws; a cache without data answers tiles only.
    ...(drawable ? { supportedImageFormatTypes: EXPORT_IMAGE_FORMATS } : {}),
    documentInfo: {
      Title: cache.name,
      Author: cache.owner,
      Comments: '',
      Subject: '',
      Category: '',
      Keywords: '',
    },
    // Tile maps are answered from compact bundles' indexes, as on ArcGIS Server (CompactV2 only).
    capabilities: `${drawable ? MAP_CAPABILITIES : 'Map,TilesOnly'}${def.storage === 'exploded' ? '' : ',Tilemap'}`,
    ...(drawable ? { supportedQueryFormats: MAP_QUERY_FORMATS, supportedExtensions: 'WMSServer' } : {}),
    exportTilesAllowed: false,
    maxRecordCount: 2000,
    maxImageHeight: 4096,
    maxImageWidth: 4096,
    cacheType: 'Map',
    serviceItemId: cache.serviceItemId,
  };
}
