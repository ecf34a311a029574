/**
 * The lean tile path. Map clients ask for tiles by the hundred per view, so tile GETs are answered ahead
 * of the app's parameter parsing and authentication, from memory where possible: the token's grant, the
 * cache row and the access answer are each kept a few seconds, the tiles (and which tiles are absent) in
 * a byte-bounded LRU keyed by the cache's generation. Whatever is not a tile answer (an unknown, expired
 * or foreign token, no such service, no access) goes on to the full stack behind, so those errors come
 * out exactly as on every other route.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import type { UserRow } from '../db/repositories/users.js';
import { createTileCacheReader, type TileCacheReader } from '../infra/tile-cache-store.js';
import { findTokenGrant, grantedUser, headerToken, type TokenGrant } from './auth.js';
import type { AppDeps, AppEnv } from './env.js';
import { createServiceAuthorizer, type ServiceAudience } from './services/service-access.js';
import {
  answerTile,
  createTileCacheRows,
  ROW_TTL_MS,
  type TileAnswer,
  type TileServiceType,
  tileResponse,
} from './services/tile-serving.js';

/** A token's grant is looked up again after this long, so a sign-out or a disabled user shows soon. */
const GRANT_TTL_MS = 5_000;
const MAX_GRANTS = 10_000;

export interface TileFastPath {
  /** The tile reader (and its LRU) the app's MapServer and VectorTileServer routers share. */
  reader: TileCacheReader;
  /** Mounts the tile routes on `app` under `basePath`; call before any middleware is added. */
  mount(app: Hono<AppEnv>, basePath: string): void;
}

export function createTileFastPath(deps: AppDeps): TileFastPath {
  const reader = createTileCacheReader(deps.store, { maxTileBytes: deps.config.tileMemoryCacheBytes });
  const rows = createTileCacheRows(ROW_TTL_MS);
  const authorize = createServiceAuthorizer(ROW_TTL_MS);
  const grants = new Map<string, { until: number; grant: Promise<TokenGrant | undefined> }>();
  const { db } = deps.database;

  /** The user a token signs in, or undefined when the full stack must refuse it. */
  async function userOf(token: string, referer: string | undefined): Promise<UserRow | undefined> {
    const now = Date.now();
    let hit = grants.get(token);
    if (!hit || hit.until <= now) {
      if (grants.size >= MAX_GRANTS) grants.clear();
      const grant = findTokenGrant(db, token, deps.now());
      grant.catch(() => grants.delete(token));
      hit = { until: now + GRANT_TTL_MS, grant };
      grants.set(token, hit);
    }
    const grant = await hit.grant;
    // Remembered grants still expire on time.
    return grant && grant.expires > deps.now() ? grantedUser(grant, referer) : undefined;
  }

  const tileRoute =
    (serviceType: TileServiceType): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      const method = c.req.method;
      if (method !== 'GET' && method !== 'HEAD') return next();
      const token = queryToken(c.req.url) || headerToken((name) => c.req.header(name));
      let user: UserRow | undefined;
      if (token) {
        user = await userOf(token, c.req.header('referer'));
        if (!user) return next();
      }
      const cache = await rows(db, serviceType, c.req.param('name') ?? '');
      if (!cache) return next();
      let audience: ServiceAudience;
      try {
        audience = await authorize(db, cache.serviceItemId, user);
      } catch {
        return next();
      }
      let answer: TileAnswer;
      try {
        answer = await answerTile(
          reader,
          { cache, audience },
          {
            level: c.req.param('level') ?? '',
            row: c.req.param('row') ?? '',
            col: c.req.param('col') ?? '',
            ifNoneMatch: c.req.header('if-none-match'),
            vector: serviceType === 'VectorTileServer',
          },
        );
      } catch {
        // The object store failed: the route behind tries once more and renders its error with CORS.
        return next();
      }
      return tileResponse(answer, corsHeaders(c.req.header('origin')));
    };

  return {
    reader,
    mount(app, basePath) {
      const hosted = `${basePath}/rest/services/Hosted/:name`;
      app.use(`${hosted}/MapServer/tile/:level/:row/:col`, tileRoute('MapServer'));
      app.use(`${hosted}/VectorTileServer/tile/:level/:row/:col`, tileRoute('VectorTileServer'));
    },
  };
}

/**
 * What app.ts's cors() middleware adds to a GET (origin echoed, credentials allowed). The lean path runs
 * ahead of it because it rebuilds every response it passes as a stream; preflights still go to it.
 */
function corsHeaders(origin: string | undefined): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin || '*',
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin',
  };
}

/** The `token` query parameter, named in any case; the last one wins, as in the full parameter parser. */
function queryToken(url: string): string | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  let token: string | undefined;
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) if (k.toLowerCase() === 'token') token = v;
  return token;
}
