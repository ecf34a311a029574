/**
 * One tile answer for every way a tile is asked for (the lean path ahead of the app's middleware and the
 * MapServer / VectorTileServer routes behind it): 304 when the client holds this generation's tile, the
 * bytes with ETag and Cache-Control otherwise, and a 404 error body when the cache has no such tile.
 */
import type { Database } from '../../db/client.js';
import { findTileCacheByName, type TileCacheRow } from '../../db/repositories/tile-caches.js';
import type { TileCacheReader, TileLocation } from '../../infra/tile-cache-store.js';
import { GeoError } from '../../lib/errors.js';
import { tileExtension } from '../../lib/tiles/exploded-paths.js';
import { errorEnvelope } from '../render.js';
import type { ServiceAudience } from './service-access.js';

export type TileServiceType = 'MapServer' | 'VectorTileServer';

export const TILE_CACHE_CONTROL = 'public, max-age=3600, must-revalidate';
/** Tiles of a service that is not public may be kept by the client, never by a shared cache. */
export const PRIVATE_TILE_CACHE_CONTROL = 'private, max-age=3600, must-revalidate';

export const tileCacheControl = (audience: ServiceAudience) =>
  audience === 'public' ? TILE_CACHE_CONTROL : PRIVATE_TILE_CACHE_CONTROL;

/** Rows looked up by name stay this long: a rebuild (new generation) shows within this time. */
export const ROW_TTL_MS = 2_000;

export type TileCacheRows = (
  db: Database,
  serviceType: TileServiceType,
  name: string,
) => Promise<TileCacheRow | undefined>;

/**
 * Cache rows by service name, each kept `ttlMs`; concurrent first requests share one query. A missing
 * or failed cache is undefined (and not remembered, so a new publish shows at once).
 */
export function createTileCacheRows(ttlMs = ROW_TTL_MS, maxEntries = 1000): TileCacheRows {
  const byName = new Map<string, { until: number; row: Promise<TileCacheRow | undefined> }>();
  return (db, serviceType, name) => {
    const key = `${serviceType}/${name.toLowerCase()}`;
    const now = Date.now();
    const hit = byName.get(key);
    if (hit && hit.until > now) return hit.row;
    if (byName.size >= maxEntries) byName.clear();
    const row = findTileCacheByName(db, serviceType, name).then((cache) => {
      if (!cache || cache.status === 'failed') {
        byName.delete(key);
        return undefined;
      }
      return cache;
    });
    row.catch(() => byName.delete(key));
    byName.set(key, { until: now + ttlMs, row });
    return row;
  };
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  pbf: 'application/x-protobuf',
};

export type TileAnswer =
  | { status: 200; bytes: Uint8Array; headers: Record<string, string> }
  | { status: 304; headers: Record<string, string> }
  | { status: 404; error: GeoError };

export interface TileRequest {
  /** The path segments as sent; a vector tile's column may end in `.pbf`. */
  level: string;
  row: string;
  col: string;
  ifNoneMatch: string | undefined;
  /** Vector tiles are stored gzip-compressed and say so instead of being inflated on every request. */
  vector: boolean;
}

export async function answerTile(
  reader: TileCacheReader,
  { cache, audience }: { cache: TileCacheRow; audience: ServiceAudience },
  req: TileRequest,
): Promise<TileAnswer> {
  const cacheControl = tileCacheControl(audience);
  const level = Number(req.level);
  const row = Number(req.row);
  const col = Number(req.col.endsWith('.pbf') ? req.col.slice(0, -4) : req.col);
  const valid =
    Number.isInteger(level) &&
    Number.isInteger(row) &&
    Number.isInteger(col) &&
    level >= 0 &&
    row >= 0 &&
    col >= 0 &&
    row < 2 ** level &&
    col < 2 ** level &&
    cache.definition.lods.some((l) => l.level === level);
  const etag = `"${cache.serviceItemId}-${cache.generation}-${level}-${row}-${col}"`;
  if (valid && req.ifNoneMatch === etag) {
    return { status: 304, headers: { ETag: etag, 'Cache-Control': cacheControl } };
  }
  const extension = tileExtension(cache.definition.format);
  let bytes: Uint8Array | undefined;
  if (valid) {
    const at: TileLocation = {
      serviceItemId: cache.serviceItemId,
      generation: cache.generation,
      storage: cache.definition.storage,
      extension,
    };
    const tile = { level, row, col };
    const known = reader.peekTile(at, tile);
    bytes = known === undefined ? await reader.readTile(at, tile) : (known ?? undefined);
  }
  if (!bytes) {
    const details = [`The cache has no tile at level ${req.level}, row ${req.row}, column ${req.col}.`];
    return { status: 404, error: new GeoError({ code: 404, message: 'Tile not found', details }) };
  }
  const headers: Record<string, string> = {
    'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
    'Content-Length': String(bytes.length),
    ETag: etag,
    'Cache-Control': cacheControl,
  };
  if (req.vector && bytes[0] === 0x1f && bytes[1] === 0x8b) headers['Content-Encoding'] = 'gzip';
  return { status: 200, bytes, headers };
}

/**
 * The HTTP response for an answer, built directly with plain headers: @hono/node-server writes such a
 * response in one call, where Context helpers and headers objects cost more than the tile itself.
 */
export function tileResponse(answer: TileAnswer, extraHeaders?: Record<string, string>): Response {
  if (answer.status === 404) {
    return new Response(JSON.stringify(errorEnvelope(answer.error)), {
      status: 404,
      headers: { 'Content-Type': 'application/json', ...extraHeaders },
    });
  }
  const headers = extraHeaders ? { ...answer.headers, ...extraHeaders } : answer.headers;
  if (answer.status === 304) return new Response(null, { status: 304, headers });
  return new Response(answer.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
}
