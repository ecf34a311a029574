/**
 * The map-server SOAP service over hosted services: every operation's handler, grouped by kind,
 * each group a factory over the same dependencies, composed and handed to the dispatcher.
 */

import type { DatabaseHandle } from '../db/client.js';
import type { TileCacheRows } from '../db/repositories/tile-cache-rows.js';
import type { ObjectStore } from '../infra/object-store.js';
import { createSoapService, type SoapService, type SoapServiceOptions } from './dispatcher.js';
import { createCacheHandlers } from './handlers/cache-handlers.js';
import { createGeometryHandlers } from './handlers/geometry-handlers.js';
import { createImageHandlers } from './handlers/image-handlers.js';
import { createImageOutput, type ImageOutput } from './handlers/image-output.js';
import { createInfoHandlers } from './handlers/info-handlers.js';
import { createLegendHandlers } from './handlers/legend-handlers.js';
import { loadMap, type MapServerLocals, type MapServiceDeps } from './handlers/map-context.js';
import { createQueryHandlers } from './handlers/query-handlers.js';
import { createSearchHandlers } from './handlers/search-handlers.js';
import { createTableExtraHandlers } from './handlers/table-extras-handlers.js';
import type { MapTileSource } from './handlers/tile-cache-reader.js';
import type { SoapHandlers } from './service-types.js';

export function createMapServerHandlers(deps: MapServiceDeps): SoapHandlers<MapServerLocals> {
  return {
    ...createInfoHandlers(deps),
    ...createQueryHandlers(deps),
    ...createImageHandlers(deps),
    ...createSearchHandlers(deps),
    ...createGeometryHandlers(deps),
    ...createLegendHandlers(deps),
    ...createCacheHandlers(deps),
    ...createTableExtraHandlers(deps),
  };
}

export interface MapServerSoapDeps {
  database: DatabaseHandle;
  store: ObjectStore;
  now: () => number;
  /** The app's tile reader, as GetMapTile reads it. */
  tiles: MapTileSource;
  /** The app's cache rows by service name (the router's access check reads the same). */
  cacheRows: TileCacheRows;
  /** Defaults to short-lived objects in the store. */
  images?: ImageOutput;
}

export interface MapServerSoap {
  /** The cache rows the handlers look maps up by, remembered briefly (the router's access check shares them). */
  cacheRows: TileCacheRows;
  /** Each request passes its caller as `locals`: queries and drawings show what that caller may see. */
  service: SoapService<MapServerLocals>;
  images: ImageOutput;
  /** The map's name as published, or a fault when no map service answers to `name`. */
  mapName(name: string): Promise<string>;
}

/** What the map handlers are built over; the REST MapServer draws and searches with the same. */
export function createMapServiceDeps(deps: MapServerSoapDeps): MapServiceDeps {
  return {
    database: deps.database,
    store: deps.store,
    cacheRows: deps.cacheRows,
    now: deps.now,
    tiles: deps.tiles,
    images: deps.images ?? createImageOutput({ store: deps.store, now: deps.now }),
  };
}

export function createMapServerSoap(
  deps: MapServerSoapDeps,
  options: SoapServiceOptions = {},
): MapServerSoap {
  const mapDeps = createMapServiceDeps(deps);
  const images = mapDeps.images;
  return {
    cacheRows: mapDeps.cacheRows,
    service: createSoapService(createMapServerHandlers(mapDeps), options),
    images,
    mapName: async (name) => (await loadMap(mapDeps, name)).name,
  };
}
