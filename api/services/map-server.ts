/**
 * rest/services/Hosted/{name}/MapServer: the cached map service, its layers and legend, and its tiles
 * read out of the object store (bundle index fetched once per bundle, then one range read per tile).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { ROW_TTL_MS, type TileCacheRows } from '../../db/repositories/tile-cache-rows.js';
import type { TileCacheRow, TileServiceType } from '../../db/repositories/tile-caches.js';
import type { ServedTiles } from '../../infra/served-tiles.js';
import type { TileCacheReader } from '../../infra/tile-cache-store.js';
import { canChange } from '../../lib/access/items.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { serviceNotFound } from './hosted-layer.js';
import { mapServerJson, mapServiceLayers } from './map-server-json.js';
import { mapServerLegend } from './map-server-legend.js';
import { rebuildTileCache } from './map-server-rebuild.js';
import { createServiceAuthorizer, type ServiceAudience } from './service-access.js';
import { answerTile, answerTileMap, tileResponse } from './tile-serving.js';

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

/** `tiles`: the app's tile reader (its LRU is the lean tile path's) and cache rows. */
export function createMapServerRouter(tiles: ServedTiles): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const base = '/services/Hosted/:name/MapServer';
  const cacheNamed = createCacheLookup(tiles.rows);
  const { reader } = tiles;

  router.on(methods, base, async (c) => sendJson(c, mapServerJson((await cacheNamed(c, 'MapServer')).cache)));

  router.on(methods, `${base}/layers`, async (c) => {
    const json = mapServerJson((await cacheNamed(c, 'MapServer')).cache);
    return sendJson(c, { layers: json.layers, tables: [] });
  });

  router.on(methods, `${base}/legend`, async (c) =>
    sendJson(c, await mapServerLegend(mapServiceLayers((await cacheNamed(c, 'MapServer')).cache))),
  );

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

  return router;
}
