/**
 * rest/services/Hosted/{name}/MapServer: the cached map service, its layers and legend, and its tiles
 * read out of the object store (bundle index fetched once per bundle, then one range read per tile).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { HostedServiceRow } from '../../db/repositories/services.js';
import { ROW_TTL_MS, type TileCacheRows } from '../../db/repositories/tile-cache-rows.js';
import type { TileCacheRow, TileServiceType } from '../../db/repositories/tile-caches.js';
import type { ServedTiles } from '../../infra/served-tiles.js';
import type { TileCacheReader } from '../../infra/tile-cache-store.js';
import { canChange } from '../../lib/access/items.js';
import { badRequest, forbidden, GeoError } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { publicRoot } from '../urls.js';
import { dynamicMapJson, mapLayerJson } from './dynamic-map-json.js';
import { sendLayerQuery } from './feature-server.js';
import { layerOfService, serviceNotFound } from './hosted-layer.js';
import { drawExport, readExportRequest } from './map-export.js';
import { find, identify } from './map-search.js';
import { mapServerJson, mapServiceLayers } from './map-server-json.js';
import { mapServerLegend } from './map-server-legend.js';
import { rebuildTileCache } from './map-server-rebuild.js';
import { createMapTargets, restErrors } from './map-service-target.js';
import { createServiceAuthorizer, type ServiceAudience } from './service-access.js';
import { answerTile, answerTileMap, tileResponse } from './tile-serving.js';
import { mountWmtsRoutes } from './wmts-server.js';

const methods = ['GET', 'POST'];

export { PRIVATE_TILE_CACHE_CONTROL, TILE_CACHE_CONTROL, tileCacheControl } from './tile-serving.js';

export type CacheLookup = (
  c: Context<AppEnv>,
  serviceType: TileServiceType,
) => Promise<{ cache: TileCacheRow; audience: ServiceAudience }>;

/**
 * Finds a cache by its service name and checks that the caller may read its item; tile requests come
 * by the hundred per map view, so rows and access answers are kept briefly.
 */
export function createCacheLookup(rows: TileCacheRows): CacheLookup {
  const authorize = createServiceAuthorizer(ROW_TTL_MS);
  return async (c, serviceType) => {
    const { db } = c.get('deps').database;
    const cache = await rows(db, serviceType, c.req.param('name') ?? '');
    if (!cache) throw serviceNotFound();
    const audience = await authorize(db, cache.serviceItemId, c.get('user'));
    return { cache, audience };
  };
}

/** Answers one tile request behind the app's middleware (the lean path declined it or was bypassed). */
export async function sendTile(
  c: Context<AppEnv>,
  reader: TileCacheReader,
  found: { cache: TileCacheRow; audience: ServiceAudience },
  vector = false,
) {
  const answer = await answerTile(reader, found, {
    level: c.req.param('level') ?? '',
    row: c.req.param('row') ?? '',
    col: c.req.param('col') ?? '',
    ifNoneMatch: c.req.header('if-none-match'),
    vector,
  });
  return tileResponse(answer);
}

/** Answers a tile map request (`tilemap/{level}/{row}/{col}/{width}/{height}`) of a cache. */
export async function sendTileMap(
  c: Context<AppEnv>,
  reader: TileCacheReader,
  found: { cache: TileCacheRow; audience: ServiceAudience },
) {
  const answer = await answerTileMap(reader, found, {
    level: c.req.param('level') ?? '',
    row: c.req.param('row') ?? '',
    col: c.req.param('col') ?? '',
    width: c.req.param('width') ?? '',
    height: c.req.param('height') ?? '',
    ifNoneMatch: c.req.header('if-none-match'),
  });
  for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
  return answer.status === 304 ? c.body(null, 304) : sendJson(c, answer.body);
}

const layerNotFound = (id: string) =>
  new GeoError({
    code: 400,
    message: 'Invalid or missing input parameters.',
    details: [`The map service has no layer ${id}.`],
  });

/** `tiles`: the app's tile reader (its LRU is the lean tile path's) and cache rows. */
export function createMapServerRouter(tiles: ServedTiles): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const base = '/services/Hosted/:name/MapServer';
  const cacheNamed = createCacheLookup(tiles.rows);
  const { reader } = tiles;
  const maps = createMapTargets(tiles);
  /** The map of a request that draws or reads features: a cache from a tile package has none. */
  const drawable = async (c: Context<AppEnv>) => {
    const opened = await maps.open(c);
    if (!opened.map.service)
      throw badRequest('Requested operation is not supported by this service.', [
        'The map service is a tile cache imported from a package: it has tiles only, no data to draw or query.',
      ]);
    return opened;
  };

  router.on(methods, base, async (c) => {
    const { cache, service } = await maps.target(c);
    if (cache) return sendJson(c, mapServerJson(cache, service !== null));
    const { map } = await maps.open(c);
    return sendJson(c, dynamicMapJson(service as HostedServiceRow, map.layers));
  });

  router.on(methods, `${base}/layers`, async (c) => {
    const { cache } = await maps.target(c);
    if (cache) return sendJson(c, { layers: mapServerJson(cache).layers, tables: [] });
    const { map } = await maps.open(c);
    return sendJson(c, {
      layers: map.layers.filter((l) => !l.isTable).map(mapLayerJson),
      tables: map.layers.filter((l) => l.isTable).map(mapLayerJson),
    });
  });

  router.on(methods, `${base}/legend`, async (c) => {
    const { cache } = await maps.target(c);
    if (cache) return sendJson(c, await mapServerLegend(mapServiceLayers(cache)));
    const { map } = await maps.open(c);
    const layers = map.layers.filter((l) => !l.isTable);
    return sendJson(
      c,
      await mapServerLegend(
        layers.map((l) => ({
          id: l.id,
          name: l.name,
          geometryType: l.geometryType ?? undefined,
          drawingInfo: l.drawingInfo,
        })),
      ),
    );
  });

  router.on(methods, `${base}/export`, async (c) => {
    const { map, deps } = await drawable(c);
    const request = readExportRequest(map, c.get('params'));
    const format = (c.get('params').get('f') ?? 'html').toLowerCase();
    if (!['image', 'json', 'pjson', 'html', ''].includes(format))
      throw badRequest('Invalid or missing input parameters.', [`'f' must be one of image, json, pjson.`]);
    const image = await restErrors(() => drawExport(deps, map, request));
    if (format === 'image')
      return c.body(new Uint8Array(image.bytes), 200, { 'Content-Type': image.contentType });
    const { view } = request;
    const href = await deps.images.publish(
      image.bytes,
      image.extension,
      `${publicRoot(c)}/services/Hosted/${map.name}/MapServer`,
    );
    const [xmin, ymin, xmax, ymax] = view.extent;
    return sendJson(c, {
      href,
      width: view.width,
      height: view.height,
      extent: { xmin, ymin, xmax, ymax, spatialReference: view.sr },
      scale: view.scale,
    });
  });

  router.on(methods, `${base}/identify`, async (c) => {
    const { map, deps, ctx } = await drawable(c);
    return sendJson(c, await identify(deps, ctx, map, c.get('params')));
  });

  router.on(methods, `${base}/find`, async (c) => {
    const { map, deps, ctx } = await drawable(c);
    return sendJson(c, await find(deps, ctx, map, c.get('params')));
  });

  router.on(methods, `${base}/:layer{[0-9]+}`, async (c) => {
    const { map } = await drawable(c);
    const layer = map.layers.find((l) => l.id === Number(c.req.param('layer')));
    if (!layer) throw layerNotFound(c.req.param('layer'));
    return sendJson(c, mapLayerJson(layer));
  });

  // A map service's layer query is its feature service's, under that service's access rules.
  router.on(methods, `${base}/:layer{[0-9]+}/query`, async (c) => {
    const { map } = await drawable(c);
    await map.mayReadFeatures();
    const service = map.service as HostedServiceRow;
    const layer = await layerOfService(c.get('deps').database.db, service, c.req.param('layer'));
    return sendLayerQuery(c, service, layer);
  });

  // Owners rebuild the cache from the current data (a new generation: clients see new ETags).
  router.post(`${base}/updateTiles`, async (c) => {
    const user = requireUser(c);
    const { cache } = await cacheNamed(c, 'MapServer');
    if (!canChange(cache, user)) throw forbidden();
    if (!cache.sourceServiceItemId)
      throw badRequest('Unable to update tiles.', ['The cache was published from a tile package.']);
    const deps = c.get('deps');
    const workflowId = await rebuildTileCache(
      { db: deps.database.db, temporal: deps.temporal, taskQueue: deps.config.temporal.taskQueue },
      cache,
    );
    reader.forget(cache.serviceItemId);
    return sendJson(c, { success: true, jobId: workflowId });
  });

  router.get(`${base}/tile/:level/:row/:col`, async (c) =>
    sendTile(c, reader, await cacheNamed(c, 'MapServer')),
  );

  router.get(`${base}/tilemap/:level/:row/:col/:width/:height`, async (c) =>
    sendTileMap(c, reader, await cacheNamed(c, 'MapServer')),
  );

  mountWmtsRoutes(router, base, cacheNamed, () => reader);

  return router;
}
