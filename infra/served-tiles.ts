/**
 * The app's one tile reader (with its byte-bounded memory of tiles and absent tiles) and its one memo of
 * cache rows by service name. Made once per process by `appDeps` and passed to `createApp` in its
 * dependencies: the lean tile path, the MapServer and VectorTileServer routes and SOAP's GetMapTile all
 * read through them, so a tile is held in memory once.
 */
import { createTileCacheRows, type TileCacheRows } from '../db/repositories/tile-cache-rows.js';
import type { ObjectStore } from './object-store.js';
import { createTileCacheReader, type TileCacheReader } from './tile-cache-store.js';

export interface ServedTiles {
  reader: TileCacheReader;
  rows: TileCacheRows;
}

export function createServedTiles(store: ObjectStore, options: { maxTileBytes: number }): ServedTiles {
  return {
    reader: createTileCacheReader(store, { maxTileBytes: options.maxTileBytes }),
    rows: createTileCacheRows(),
  };
}
