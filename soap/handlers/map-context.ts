/**
 * One hosted service seen as a SOAP map: its single data frame ("Layers"), its layers and tables
 * with the query engine's catalog of each, and the dependencies every handler group is built over.
 */

import type { DatabaseHandle } from '../../db/client.js';
import {
  findService,
  findServiceByName,
  type HostedLayerRow,
  type HostedServiceRow,
  listLayers,
} from '../../db/repositories/services.js';
import type { TileCacheRows } from '../../db/repositories/tile-cache-rows.js';
import { type TileCacheRow, tileCachesOfSource } from '../../db/repositories/tile-caches.js';
import type { UserRow } from '../../db/repositories/users.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { tokenRequired } from '../../lib/errors.js';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import { layerCatalog, storageSpatialReference } from '../../lib/query/hosted-layer-catalog.js';
import type { LayerCatalog } from '../../lib/query/layer-catalog.js';
import type { DrawingInfo } from '../../lib/render/types.js';
import { clientFault } from '../fault.js';
import type { SoapContext } from '../service-types.js';
import type { ImageOutput } from './image-output.js';
import type { MapCache, MapTileSource } from './tile-cache-reader.js';

/** A hosted service has one data frame; the real server names it "Layers" too. */
export const MAP_NAME = 'Layers';

/** What the SOAP router passes with each request: the signed-in caller, if any, and what it may read. */
export interface MapServerLocals {
  user: UserRow | undefined;
  /**
   * Resolves when the caller may read the hosted service with this item id; rejects with the access
   * error (499 without a token, 403 without access) otherwise. The router has checked the service the
   * request addresses; the feature service a cached map was drawn from is asked for when its features
   * are read (see HostedMap.mayReadFeatures).
   */
  mayRead(serviceItemId: string): Promise<unknown>;
}

export interface MapServiceDeps {
  database: DatabaseHandle;
  /** The object store: attachments' bytes. */
  store: ObjectStore;
  /** Cache rows by service name, remembered briefly as the REST MapServer routes do (tiles come by the hundred). */
  cacheRows: TileCacheRows;
  tiles: MapTileSource;
  images: ImageOutput;
  now: () => number;
}

export interface LayerField {
  name: string;
  type: string;
  alias?: string;
  length?: number;
}

export interface MapLayer {
  id: number;
  name: string;
  isTable: boolean;
  row: HostedLayerRow;
  catalog: LayerCatalog;
  fields: LayerField[];
  displayField: string;
  geometryType: string | null;
  extent: Bounds | null;
  drawingInfo: DrawingInfo | null;
  definition: Record<string, unknown>;
}

export interface HostedMap {
  /** The feature service whose layers the map draws and queries; null for a cache imported from a package. */
  service: HostedServiceRow | null;
  name: string;
  owner: string;
  units: string;
  /** The map's tile cache (a MapServer tile service drawn from the feature service), if any. */
  cache: MapCache | null;
  description: string;
  copyrightText: string;
  spatialReference: SpatialReference;
  extent: Bounds | null;
  maxRecordCount: number;
  /** Feature layers first, then tables, each in id order. */
  layers: MapLayer[];
  /**
   * Whose view of the features queries and drawings give: ownership access control (allowOthersToQuery
   * false) hides others' features from them. Undefined is an anonymous caller, so a map loaded without
   * the caller shows such a layer's anonymous features only, never everyone's.
   */
  viewer: UserRow | undefined;
  /**
   * Resolves when the viewer may read the features of `service`; rejects with the access error
   * otherwise. Every feature read asks (layer-query.ts): a tile service may be shared with everyone while
   * the feature service it was drawn from stays private, as on the portal, and then its tiles, legend
   * and map information are open to all, its features only to those who may read that service. A map
   * loaded without its caller's access reads no features.
   */
  mayReadFeatures(): Promise<unknown>;
}

const boundsOf = (e: unknown): Bounds | null => {
  const env = e as { xmin?: unknown; ymin?: unknown; xmax?: unknown; ymax?: unknown } | undefined;
  const b = [env?.xmin, env?.ymin, env?.xmax, env?.ymax].map(Number);
  return b.every(Number.isFinite) ? (b as Bounds) : null;
};

function mapLayerOf(row: HostedLayerRow): MapLayer {
  const def = row.definition;
  const geometryType = typeof def.geometryType === 'string' ? def.geometryType : null;
  return {
    id: row.layerId,
    name: String(def.name ?? `Layer ${row.layerId}`),
    isTable: !geometryType,
    row,
    catalog: layerCatalog(row),
    fields: (def.fields as LayerField[] | undefined) ?? [],
    displayField: String(def.displayField ?? 'OBJECTID'),
    geometryType,
    extent: boundsOf(def.extent),
    drawingInfo: (def.drawingInfo as DrawingInfo | undefined) ?? null,
    definition: def,
  };
}

const usableCache = (row: TileCacheRow | undefined): row is TileCacheRow =>
  row?.serviceType === 'MapServer' && row.status !== 'failed';

const mapCacheOf = (row: TileCacheRow): MapCache => ({
  serviceItemId: row.serviceItemId,
  name: row.name,
  generation: row.generation,
  definition: row.definition,
});

/**
 * The map a request is addressed to: a cached map service (tile service) by name, with the feature
 * service it is drawn from, or else a ready feature service by name, with its tile cache if one was
 * built from it. Anything else is a fault naming the service.
 */
export interface LoadOptions {
  /** Skip reading the source service and its layer rows (the tile operations need only the cache). */
  withoutLayers?: boolean;
  /** The caller; operations that read or draw features open their map with openMapFor. */
  viewer?: UserRow;
  /** How the caller's right to read a service is checked (MapServerLocals.mayRead). */
  mayRead?: (serviceItemId: string) => Promise<unknown>;
}

export async function loadMap(
  deps: MapServiceDeps,
  serviceName: string,
  options: LoadOptions = {},
): Promise<HostedMap> {
  const db = deps.database.db;
  const cacheRow = await deps.cacheRows(db, 'MapServer', serviceName);
  let service: HostedServiceRow | undefined;
  let cache: TileCacheRow | undefined;
  let name = serviceName;
  if (usableCache(cacheRow)) {
    name = cacheRow.name;
    cache = cacheRow;
    const source = options.withoutLayers ? null : cacheRow.sourceServiceItemId;
    service = source ? await findService(db, source) : undefined;
  } else {
    service = await findServiceByName(db, serviceName);
    if (service?.status !== 'ready') throw clientFault(`Service not found: Hosted/${serviceName}.`);
    name = service.name;
    cache = (await tileCachesOfSource(db, service.serviceItemId)).find(
      (c) => usableCache(c) && c.status === 'ready',
    );
  }
  const rows =
    service?.status === 'ready' && !options.withoutLayers ? await listLayers(db, service.serviceItemId) : [];
  const layers = rows.map(mapLayerOf).sort((a, b) => Number(a.isTable) - Number(b.isTable) || a.id - b.id);
  const def = service?.definition ?? cache?.service ?? {};
  const cacheExtent = cache?.definition.extent ?? null;
  return {
    service: service ?? null,
    name,
    owner: service?.owner ?? cache?.owner ?? '',
    units: String(def.units ?? 'esriMeters'),
    cache: cache ? mapCacheOf(cache) : null,
    description: String(def.serviceDescription ?? def.description ?? ''),
    copyrightText: String(def.copyrightText ?? ''),
    spatialReference: service
      ? storageSpatialReference(service)
      : { wkid: cache?.definition.wkid ?? 102100, latestWkid: cache?.definition.latestWkid ?? 3857 },
    extent: boundsOf(def.fullExtent) ?? boundsOf(def.initialExtent) ?? cacheExtent,
    maxRecordCount: Number(def.maxRecordCount) > 0 ? Number(def.maxRecordCount) : 2000,
    layers,
    viewer: options.viewer,
    mayReadFeatures: () => {
      if (!service) return Promise.resolve();
      if (!options.mayRead) return Promise.reject(tokenRequired());
      return options.mayRead(service.serviceItemId);
    },
  };
}

/** Clients pass the name GetDefaultMapName gave them; an empty name means the default map. */
export function checkMapName(name: string | undefined): void {
  if (name && name.toLowerCase() !== MAP_NAME.toLowerCase()) throw clientFault(`Invalid map name: ${name}.`);
}

export function layerOf(map: HostedMap, id: number): MapLayer {
  const layer = map.layers.find((l) => l.id === id);
  if (!layer) throw clientFault(`Invalid layer ID: ${id}.`);
  return layer;
}

export function featureLayerOf(map: HostedMap, id: number): MapLayer {
  const layer = layerOf(map, id);
  if (layer.isTable) throw clientFault(`Layer ${id} is a standalone table, not a feature layer.`);
  return layer;
}

/** The layers an operation addresses: the given ids (each checked), or every layer when none are given. */
export function layersOf(map: HostedMap, ids: readonly number[] | undefined, tables = false): MapLayer[] {
  if (!ids || ids.length === 0) return map.layers.filter((l) => tables || !l.isTable);
  return ids.map((id) => layerOf(map, id));
}

/** Loads the map after checking the map name the request carries. */
export async function openMap(
  deps: MapServiceDeps,
  serviceName: string,
  mapName?: string,
  options: LoadOptions = {},
): Promise<HostedMap> {
  checkMapName(mapName);
  return loadMap(deps, serviceName, options);
}

/**
 * Opens the map a request addresses as its caller sees it: the path's service, the caller's features,
 * read only when the caller may read the service they are in.
 */
export function openMapFor(
  deps: MapServiceDeps,
  ctx: SoapContext<MapServerLocals>,
  mapName?: string,
): Promise<HostedMap> {
  return openMap(deps, ctx.serviceName, mapName, { viewer: ctx.locals.user, mayRead: ctx.locals.mayRead });
}
