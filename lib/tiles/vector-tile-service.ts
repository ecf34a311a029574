/**
 * The root resource of a vector tile service built from a feature service, in the shape ArcGIS gives
 * its VectorTileServer (and a .vtpk's root.json): 512-pixel tiles, so level z's resolution is half
 * the 256-pixel scheme's, while tile addresses stay the XYZ ones; `tiles` and `defaultStyles` are
 * relative to the service URL.
 */
import type { Bounds } from '../geometry/types.js';
import type { CacheDefinition } from './cache-definition.js';
import { ORIGIN_X, ORIGIN_Y } from './web-mercator.js';

export const VECTOR_TILE_SIZE = 512;

const SR = { wkid: 102100, latestWkid: 3857 };

const envelope = (b: Bounds) => ({ xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3], spatialReference: SR });

export function vectorTileServiceRoot(
  name: string,
  definition: CacheDefinition,
  copyrightText: string,
): Record<string, unknown> {
  const lods = definition.lods.map((l) => ({
    level: l.level,
    resolution: l.resolution / 2,
    scale: l.scale / 2,
  }));
  const extent = definition.extent ? envelope(definition.extent) : undefined;
  const minLevel = lods[0]?.level ?? 0;
  const maxLevel = lods[lods.length - 1]?.level ?? 0;
  return {
    currentVersion: 11.1,
    name,
    copyrightText,
    capabilities: 'TilesOnly,Tilemap',
    type: 'indexedVector',
    tileMap: 'tilemap',
    defaultStyles: 'resources/styles',
    tiles: ['tile/{z}/{y}/{x}.pbf'],
    exportTilesAllowed: false,
    initialExtent: extent,
    fullExtent: extent,
    minScale: lods[0]?.scale ?? 0,
    maxScale: lods[lods.length - 1]?.scale ?? 0,
    tileInfo: {
      rows: VECTOR_TILE_SIZE,
      cols: VECTOR_TILE_SIZE,
      dpi: 96,
      format: 'pbf',
      origin: { x: ORIGIN_X, y: ORIGIN_Y },
      spatialReference: SR,
      lods,
    },
    minLOD: minLevel,
    maxLOD: maxLevel,
    minzoom: minLevel,
    maxzoom: maxLevel,
    resourceInfo: { styleVersion: 8, tileCompression: 'gzip' },
  };
}
