/**
 * Tiles of a map's cache for GetMapTile. The cache's rows live in the database (found with the map,
 * see map-context); its bytes in the object store under `caches/<serviceItemId>/`, read with the
 * same range-reading reader the REST tile endpoint uses, so both answer with the same bytes.
 */
import type { TileCacheReader } from '../../infra/tile-cache-store.js';
import type { CacheDefinition } from '../../lib/tiles/cache-definition.js';
import { tileExtension } from '../../lib/tiles/exploded-paths.js';

export interface MapCache {
  /** The tile service's own item id: its objects are under `caches/<serviceItemId>/`. */
  serviceItemId: string;
  name: string;
  generation: number;
  definition: CacheDefinition;
}

/** A map cache's tiles as GetMapTile asks for them. */
export interface MapTileSource {
  /** A tile's bytes, or undefined when the cache holds none at that address. */
  readTile(cache: MapCache, level: number, row: number, col: number): Promise<Uint8Array | undefined>;
}

/** GetMapTile's tiles through the app's tile reader, shared with the REST tiles. */
export function mapTileSource(reader: TileCacheReader): MapTileSource {
  return {
    readTile: (cache, level, row, col) =>
      reader.readTile(
        {
          serviceItemId: cache.serviceItemId,
          generation: cache.generation,
          storage: cache.definition.storage,
          extension: tileExtension(cache.definition.format),
        },
        { level, row, col },
      ),
  };
}
