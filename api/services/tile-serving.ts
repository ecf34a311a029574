/**
 * One tile answer for every way a tile is asked for (the lean path in front of the app and the MapServer /
 * VectorTileServer routes behind it): 304 when the client holds this generation's tile, the
 * bytes with ETag and Cache-Control otherwise, and a 404 error body when the cache has no such tile.
 */
import type { TileCacheRow } from '../../db/repositories/tile-caches.js';
import type { TileCacheReader, TileLocation } from '../../infra/tile-cache-store.js';
import { badRequest, GeoError } from '../../lib/errors.js';
import { tileExtension } from '../../lib/tiles/exploded-paths.js';
import { bundlesOfArea, type TileMap, tileMapArea, tileMapData } from '../../lib/tiles/tile-map.js';
import { matrixSize } from '../../lib/tiles/web-mercator.js';
import { errorEnvelope } from '../render.js';
import type { ServiceAudience } from './service-access.js';

export const TILE_CACHE_CONTROL = 'public, max-age=3600, must-revalidate';
/** Tiles of a service that is not public may be kept by the client, never by a shared cache. */
export const PRIVATE_TILE_CACHE_CONTROL = 'private, max-age=3600, must-revalidate';

export const tileCacheControl = (audience: ServiceAudience) =>
  audience === 'public' ? TILE_CACHE_CONTROL : PRIVATE_TILE_CACHE_CONTROL;

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

/**
 * The answer when memory can give it, synchronously: a 304, a tile or absence the reader holds, or a
 * request for no tile of this cache. Undefined when only the object store can tell.
 */
export function tileAnswerNow(
  reader: TileCacheReader,
  { cache, audience }: { cache: TileCacheRow; audience: ServiceAudience },
  req: TileRequest,
): TileAnswer | undefined {
  const spot = locateTile(cache, req);
  if (!spot) return notFound(req);
  if (req.ifNoneMatch === spot.etag) return notModified(spot.etag, audience);
  const known = reader.peekTile(spot.at, spot.tile);
  if (known === undefined) return undefined;
  return known ? found(known, spot, audience, req) : notFound(req);
}

export async function answerTile(
  reader: TileCacheReader,
  { cache, audience }: { cache: TileCacheRow; audience: ServiceAudience },
  req: TileRequest,
): Promise<TileAnswer> {
  const now = tileAnswerNow(reader, { cache, audience }, req);
  if (now) return now;
  // tileAnswerNow answers every request locateTile refuses, so spot is defined here.
  const spot = locateTile(cache, req) as TileSpot;
  const bytes = await reader.readTile(spot.at, spot.tile);
  return bytes ? found(bytes, spot, audience, req) : notFound(req);
}

export interface TileSpot {
  at: TileLocation;
  tile: { level: number; row: number; col: number };
  etag: string;
  contentType: string;
}

/** A path segment of decimal digits as its number; NaN for anything else (`0x1`, `1e0`, ` 1`, `+1`). */
const decimal = (segment: string): number => (/^\d{1,10}$/.test(segment) ? Number(segment) : Number.NaN);

/** Where the requested tile would be, or undefined when the request names no tile of this cache. */
export function locateTile(cache: TileCacheRow, req: TileRequest): TileSpot | undefined {
  const level = decimal(req.level);
  const row = decimal(req.row);
  const col = decimal(req.col.endsWith('.pbf') ? req.col.slice(0, -4) : req.col);
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
  if (!valid) return undefined;
  const extension = tileExtension(cache.definition.format);
  return {
    at: {
      serviceItemId: cache.serviceItemId,
      generation: cache.generation,
      storage: cache.definition.storage,
      extension,
    },
    tile: { level, row, col },
    etag: `"${cache.serviceItemId}-${cache.generation}-${level}-${row}-${col}"`,
    contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
  };
}

function notModified(etag: string, audience: ServiceAudience): TileAnswer {
  return { status: 304, headers: { ETag: etag, 'Cache-Control': tileCacheControl(audience) } };
}

function notFound(req: TileRequest): TileAnswer {
  const details = [`The cache has no tile at level ${req.level}, row ${req.row}, column ${req.col}.`];
  return { status: 404, error: new GeoError({ code: 404, message: 'Tile not found', details }) };
}

function found(bytes: Uint8Array, spot: TileSpot, audience: ServiceAudience, req: TileRequest): TileAnswer {
  const headers: Record<string, string> = {
    'Content-Type': spot.contentType,
    'Content-Length': String(bytes.length),
    ETag: spot.etag,
    'Cache-Control': tileCacheControl(audience),
    // Tiles of uploaded packages are uploaded bytes: never let a browser take one for a page.
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.vector && bytes[0] === 0x1f && bytes[1] === 0x8b) headers['Content-Encoding'] = 'gzip';
  return { status: 200, bytes, headers };
}

/**
 * The HTTP response for an answer, built directly with plain headers: @hono/node-server writes such a
 * response in one call, where Context helpers and headers objects cost more than the tile itself.
 */
export function tileResponse(answer: TileAnswer): Response {
  if (answer.status === 404) {
    return new Response(JSON.stringify(errorEnvelope(answer.error)), {
      status: 404,
      headers: { 'Content-Type': 'application/json' },
    });
  }
  if (answer.status === 304) return new Response(null, { status: 304, headers: answer.headers });
  return new Response(answer.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: answer.headers });
}

export interface TileMapRequest {
  level: string;
  row: string;
  col: string;
  width: string;
  height: string;
  ifNoneMatch: string | undefined;
}

export type TileMapAnswer =
  | { status: 200; body: TileMap; headers: Record<string, string> }
  | { status: 304; headers: Record<string, string> };

/**
 * Which tiles of an area exist, from the bundle indexes the tile reads keep (compact caches only, as on
 * ArcGIS Server: an exploded cache has no index to answer from, and its service does not offer tile maps).
 * Throws the client's error for a request that names no area of the cache.
 */
export async function answerTileMap(
  reader: TileCacheReader,
  { cache, audience }: { cache: TileCacheRow; audience: ServiceAudience },
  req: TileMapRequest,
): Promise<TileMapAnswer> {
  const def = cache.definition;
  if (def.storage === 'exploded') {
    throw badRequest('Tilemap is not supported.', ['Tile maps need a compact cache; this one is exploded.']);
  }
  const level = /^\d{1,2}$/.test(req.level) ? Number(req.level) : Number.NaN;
  if (!def.lods.some((l) => l.level === level)) {
    throw new GeoError({
      code: 404,
      message: 'Tilemap not found',
      details: [`The cache has no level ${req.level}.`],
    });
  }
  const area = tileMapArea(req, matrixSize(level));
  if ('problem' in area) throw badRequest('Invalid tilemap request.', [area.problem]);
  const { location, adjusted } = area;
  const etag = `"${cache.serviceItemId}-${cache.generation}-tilemap-${level}-${location.top}-${location.left}-${location.width}-${location.height}"`;
  const headers = { ETag: etag, 'Cache-Control': tileCacheControl(audience) };
  if (req.ifNoneMatch === etag) return { status: 304, headers };
  const at: TileLocation = {
    serviceItemId: cache.serviceItemId,
    generation: cache.generation,
    storage: def.storage,
  };
  const bundles = await Promise.all(
    bundlesOfArea(location).map(async (b) => ({
      ...b,
      sizes: await reader.bundleSizes(at, level, b.row0, b.col0),
    })),
  );
  const data = tileMapData(location, bundles);
  return { status: 200, body: { adjusted, location, data }, headers };
}
