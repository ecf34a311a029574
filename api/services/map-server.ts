/**
 * rest/services/Hosted/{name}/MapServer: the cached map service, its layers and legend, and its tiles
 * read out of the object store (bundle index fetched once per bundle, then one range read per tile).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { findTileCacheByName, type TileCacheRow } from '../../db/repositories/tile-caches.js';
import { createTileCacheReader, type TileCacheReader } from '../../infra/tile-cache-store.js';
import { badRequest, forbidden, GeoError } from '../../lib/errors.js';
import { tileExtension } from '../../lib/tiles/exploded-paths.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { errorEnvelope, sendJson } from '../render.js';
import './map-server-deletion.js';
import { serviceNotFound } from './hosted-layer.js';
import { mapServerJson, mapServiceLayers } from './map-server-json.js';
import { mapServerLegend } from './map-server-legend.js';
import { rebuildTileCache } from './map-server-rebuild.js';
import { createServiceAuthorizer, type ServiceAudience } from './service-access.js';

const methods = ['GET', 'POST'];

export const TILE_CACHE_CONTROL = 'public, max-age=3600, must-revalidate';
/** Tiles of a service that is not public may be kept by the client, never by a shared cache. */
export const PRIVATE_TILE_CACHE_CONTROL = 'private, max-age=3600, must-revalidate';

export const tileCacheControl = (audience: ServiceAudience) =>
  audience === 'public' ? TILE_CACHE_CONTROL : PRIVATE_TILE_CACHE_CONTROL;

/** Rows looked up by name stay this long: a rebuild (new generation) shows within this time. */
const ROW_TTL_MS = 2_000;

export type CacheLookup = (
  c: Context<AppEnv>,
  serviceType: 'MapServer' | 'VectorTileServer',
) => Promise<{ cache: TileCacheRow; audience: ServiceAudience }>;

/**
 * Finds a cache by its service name and checks that the caller may read its item; tile requests come
 * by the hundred per map view, so rows and access answers are kept briefly.
 */
export function createCacheLookup(): CacheLookup {
  const byName = new Map<string, { row: TileCacheRow; until: number }>();
  const authorize = createServiceAuthorizer(ROW_TTL_MS);
  const find = async (c: Context<AppEnv>, serviceType: 'MapServer' | 'VectorTileServer') => {
    const name = c.req.param('name') ?? '';
    const key = `${serviceType}/${name.toLowerCase()}`;
    const hit = byName.get(key);
    const now = Date.now();
    if (hit && hit.until > now) return hit.row;
    const cache = await findTileCacheByName(c.get('deps').database.db, serviceType, name);
    if (!cache || cache.status === 'failed') throw serviceNotFound();
    if (byName.size > 1000) byName.clear();
    byName.set(key, { row: cache, until: now + ROW_TTL_MS });
    return cache;
  };
  return async (c, serviceType) => {
    const cache = await find(c, serviceType);
    const audience = await authorize(c.get('deps').database.db, cache.serviceItemId, c.get('user'));
    return { cache, audience };
  };
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  pbf: 'application/x-protobuf',
};

/**
 * Answers one tile request: 304 when the client holds this generation's tile, the bytes with an ETag
 * otherwise, and a 404 with an error body when the cache has no such tile.
 */
export async function sendTile(
  c: Context<AppEnv>,
  reader: TileCacheReader,
  { cache, audience }: { cache: TileCacheRow; audience: ServiceAudience },
  headers: Record<string, string> = {},
) {
  const cacheControl = tileCacheControl(audience);
  const [level, row, col] = ['level', 'row', 'col'].map((k) =>
    Number((c.req.param(k) ?? '').replace(/\.pbf$/, '')),
  );
  const lods = cache.definition.lods;
  const known = lods.some((l) => l.level === level);
  const valid =
    [level, row, col].every((n) => Number.isInteger(n) && n >= 0) && row < 2 ** level && col < 2 ** level;
  const extension = tileExtension(cache.definition.format);
  const etag = `"${cache.serviceItemId}-${cache.generation}-${level}-${row}-${col}"`;
  if (valid && known && c.req.header('if-none-match') === etag) {
    return c.body(null, 304, { ETag: etag, 'Cache-Control': cacheControl });
  }
  const bytes =
    valid && known
      ? await reader.readTile(
          {
            serviceItemId: cache.serviceItemId,
            generation: cache.generation,
            storage: cache.definition.storage,
            extension,
          },
          { level, row, col },
        )
      : undefined;
  if (!bytes) {
    const e = new GeoError({
      code: 404,
      message: 'Tile not found',
      details: [
        `The cache has no tile at level ${c.req.param('level')}, row ${c.req.param('row')}, column ${c.req.param('col')}.`,
      ],
    });
    return c.json(errorEnvelope(e), 404);
  }
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
    'Content-Length': String(bytes.length),
    ETag: etag,
    'Cache-Control': cacheControl,
    ...headers,
  });
}

export function createMapServerRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const base = '/services/Hosted/:name/MapServer';
  const cacheNamed = createCacheLookup();
  // One reader per router: its LRUs live as long as the app, not the module.
  let reader: TileCacheReader | undefined;
  const readerOf = (c: Context<AppEnv>) => {
    reader ??= createTileCacheReader(c.get('deps').store);
    return reader;
  };

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
    if (cache.owner !== user.username && user.role !== 'org_admin') throw forbidden();
    if (!cache.sourceServiceItemId)
      throw badRequest('Unable to update tiles.', ['The cache was published from a tile package.']);
    const deps = c.get('deps');
    const workflowId = await rebuildTileCache(
      { db: deps.database.db, temporal: deps.temporal, taskQueue: deps.config.temporal.taskQueue },
      cache,
    );
    readerOf(c).forget(cache.serviceItemId);
    return sendJson(c, { success: true, jobId: workflowId });
  });

  router.get(`${base}/tile/:level/:row/:col`, async (c) =>
    sendTile(c, readerOf(c), await cacheNamed(c, 'MapServer')),
  );

  return router;
}
