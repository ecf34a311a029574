/**
 * rest/services/Hosted/{name}/VectorTileServer: a vector tile service published from a .vtpk or built
 * from a hosted feature service. The service JSON is the package's root.json (or the one the build
 * wrote); tiles are gzip PBFs, served with Content-Encoding gzip; styles, sprites and fonts come from
 * the package's resources, or the style is made from the feature layers' renderers.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { TileCacheRow } from '../../db/repositories/tile-caches.js';
import type { ServedTiles } from '../../infra/served-tiles.js';
import { resourceKey } from '../../infra/tile-cache-store.js';
import { GeoError } from '../../lib/errors.js';
import type { DrawingInfo } from '../../lib/render/types.js';
import { vectorTileStyle } from '../../lib/tiles/vector-style.js';
import type { AppEnv } from '../env.js';
import { errorEnvelope, sendJson } from '../render.js';
import { downloadHeaders } from '../stored-download.js';
import { servicesUrl } from '../urls.js';
import { createCacheLookup, sendTile, sendTileMap } from './map-server.js';
import { tileCacheControl } from './tile-serving.js';

const methods = ['GET', 'POST'];

const RESOURCE_TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  png: 'image/png',
  pbf: 'application/x-protobuf',
};

/** `tiles`: the app's tile reader (its LRU is the lean tile path's) and cache rows. */
export function createVectorTileServerRouter(tiles: ServedTiles): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const base = '/services/Hosted/:name/VectorTileServer';
  const { reader } = tiles;
  const lookup = createCacheLookup(tiles.rows);
  const vectorCache = (c: Context<AppEnv>) => lookup(c, 'VectorTileServer');

  router.on(methods, base, async (c) => {
    const { cache } = await vectorCache(c);
    const root = (cache.service.root as Record<string, unknown> | undefined) ?? {};
    // Package caches are Compact V2, so tile maps are answered (tilemap/…) whether the package says so or not.
    return sendJson(c, {
      currentVersion: 11.1,
      name: cache.name,
      tileMap: 'tilemap',
      ...root,
      serviceItemId: cache.serviceItemId,
    });
  });

  // Package tiles are stored gzip-compressed: sendTile says so instead of inflating them on every request.
  router.get(`${base}/tile/:level/:row/:col`, async (c) => {
    return sendTile(c, reader, await vectorCache(c), true);
  });

  router.get(`${base}/tilemap/:level/:row/:col/:width/:height`, async (c) => {
    return sendTileMap(c, reader, await vectorCache(c));
  });

  router.get(`${base}/resources/*`, async (c) => {
    const { cache, audience } = await vectorCache(c);
    const path = new URL(c.req.url).pathname.split('/VectorTileServer/')[1] ?? '';
    const resource = decodeURIComponent(path.endsWith('/styles') ? `${path}/root.json` : path);
    if (resource.includes('..')) return notFound(c, resource);
    // A service built from a feature service has its default style made from the layers' renderers.
    if (cache.sourceServiceItemId) {
      if (resource !== 'resources/styles/root.json') return notFound(c, resource);
      const style = builtStyle(cache, `${servicesUrl(c)}/Hosted/${cache.name}/VectorTileServer`);
      c.header('Cache-Control', tileCacheControl(audience));
      return sendJson(c, style);
    }
    try {
      const bytes = await c.get('deps').store.getBuffer(resourceKey(cache.serviceItemId, resource));
      const ext = resource.slice(resource.lastIndexOf('.') + 1).toLowerCase();
      const type = RESOURCE_TYPES[ext] ?? 'application/octet-stream';
      return c.body(new Uint8Array(bytes), 200, {
        ...downloadHeaders({ contentType: type, inline: true }),
        'Cache-Control': tileCacheControl(audience),
      });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'NoSuchKey' || code === 'NotFound') return notFound(c, resource);
      throw e;
    }
  });

  return router;
}

/** The default style of a cache built from a feature service, with absolute tile URLs. */
function builtStyle(cache: TileCacheRow, serviceUrl: string): Record<string, unknown> {
  const layers =
    (cache.service.layers as { tileLayer?: string; name?: string; drawingInfo?: DrawingInfo }[]) ?? [];
  const lods = cache.definition.lods;
  return vectorTileStyle(
    layers.map((l) => ({ name: l.tileLayer ?? l.name ?? '', drawingInfo: l.drawingInfo ?? null })),
    {
      tiles: `${serviceUrl}/tile/{z}/{y}/{x}.pbf`,
      minzoom: lods[0]?.level ?? 0,
      maxzoom: lods[lods.length - 1]?.level ?? 0,
    },
    cache.name,
  );
}

function notFound(c: Context<AppEnv>, resource: string) {
  const e = new GeoError({ code: 404, message: 'Resource not found', details: [`No resource ${resource}.`] });
  return c.json(errorEnvelope(e), 404);
}
