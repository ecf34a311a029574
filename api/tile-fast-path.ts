/**
 * The lean tile path. Map clients ask for tiles by the hundred per view, so tile GETs are answered ahead
 * of the app's parameter parsing and authentication, from memory where possible: the token's grant, the
 * cache row and the access answer are each kept a few seconds, the tiles (and which tiles are absent) in
 * a byte-bounded LRU keyed by the cache's generation. Whatever is not a tile answer (an unknown, expired
 * or foreign token, no such service, no access) goes on to the full stack behind, so those errors come
 * out exactly as on every other route.
 *
 * It sits in front of the HTTP server's request listener (http-server.ts) and answers tiles on Node's own
 * request and response objects: no Request, Response, router or context is made for them, which was most
 * of what a warm tile cost. A caller that reaches the app through `app.fetch` gets the same answers from
 * the MapServer and VectorTileServer routes, which share this path's reader.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROW_TTL_MS } from '../db/repositories/tile-cache-rows.js';
import type { TileServiceType } from '../db/repositories/tile-caches.js';
import type { UserRow } from '../db/repositories/users.js';
import { createTtlMemo } from '../lib/ttl-memo.js';
import { findTokenGrant, grantedUser, type RequestOrigin, type TokenGrant, tokenOf } from './auth.js';
import { clientAddressOf } from './client-address.js';
import { simpleCorsHeaders } from './cors.js';
import type { AppDeps } from './env.js';
import { queryParam } from './params.js';
import { errorEnvelope } from './render.js';
import { createServiceAuthorizer, type ServiceAudience } from './services/service-access.js';
import { answerTile, type TileAnswer, type TileRequest, tileAnswerNow } from './services/tile-serving.js';

/** A token's grant is looked up again after this long, so a sign-out or a disabled user shows soon. */
const GRANT_TTL_MS = 5_000;
const MAX_GRANTS = 10_000;

type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** One tile request, as parsed from the request line and headers. */
interface TileAsk {
  serviceType: TileServiceType;
  name: string;
  level: string;
  row: string;
  col: string;
  /** The query string without `?`, or '' . */
  query: string;
  header(name: string): string | undefined;
  /** The client's address, for tokens bound to one. */
  address: string | undefined;
}

export interface TileFastPath {
  /**
   * A request listener that answers tile GETs under `basePath` itself and hands everything else (and
   * every tile request the full stack must answer) to `next`, the app's listener.
   */
  nodeListener(basePath: string, next: NodeListener): NodeListener;
}

export function createTileFastPath(deps: AppDeps): TileFastPath {
  const { reader, rows } = deps.tiles;
  const authorize = createServiceAuthorizer(ROW_TTL_MS);
  // A token's grant (null: no such token), looked up again after a while.
  const grants = createTtlMemo<TokenGrant | null>({
    ttlMs: GRANT_TTL_MS,
    maxEntries: MAX_GRANTS,
    now: Date.now,
  });
  const { db } = deps.database;
  const queryToken = createQueryTokens();

  /** The user a token signs in, or undefined when the full stack must refuse it. */
  async function userOf(token: string, origin: RequestOrigin): Promise<UserRow | undefined> {
    const grant = await grants.get(token, async () => (await findTokenGrant(db, token, deps.now())) ?? null);
    return signedIn(grant, origin);
  }

  /** Remembered grants still expire on time, and a referer- or address-bound one is checked every time. */
  const signedIn = (grant: TokenGrant | null | undefined, origin: RequestOrigin) =>
    grant && grant.expires > deps.now() ? grantedUser(grant, origin) : undefined;
  const originOf = (ask: TileAsk): RequestOrigin => ({
    referer: ask.header('referer'),
    address: ask.address,
  });

  /**
   * The answer from memory alone, synchronously: `undefined` when something (a grant, a row, an access
   * answer, the tile) must be read first, `null` when the full stack must answer.
   */
  function answerNow(ask: TileAsk): TileAnswer | null | undefined {
    const token = tokenOf(queryToken(ask.query), ask.header);
    let user: UserRow | undefined;
    if (token) {
      const hit = grants.peek(token);
      if (!hit) return undefined;
      user = signedIn(hit.value, originOf(ask));
      if (!user) return null;
    }
    const cache = rows.known(ask.serviceType, ask.name);
    if (!cache) return undefined;
    const audience = authorize.known(cache.serviceItemId, user);
    if (!audience) return undefined;
    return tileAnswerNow(reader, { cache, audience }, tileRequest(ask));
  }

  /** The answer for a tile request, or undefined when the full stack must answer it. */
  async function answer(ask: TileAsk): Promise<TileAnswer | undefined> {
    const token = tokenOf(queryToken(ask.query), ask.header);
    let user: UserRow | undefined;
    if (token) {
      user = await userOf(token, originOf(ask));
      if (!user) return undefined;
    }
    const cache = await rows(db, ask.serviceType, ask.name);
    if (!cache) return undefined;
    let audience: ServiceAudience;
    try {
      audience = await authorize(db, cache.serviceItemId, user);
    } catch {
      return undefined;
    }
    try {
      return await answerTile(reader, { cache, audience }, tileRequest(ask));
    } catch {
      // The object store failed: the route behind tries once more and renders its error with CORS.
      return undefined;
    }
  }

  return {
    nodeListener(basePath, next) {
      const prefix = `${basePath}/rest/services/Hosted/`;
      return (req, res) => {
        const method = req.method;
        const url = req.url ?? '';
        if ((method !== 'GET' && method !== 'HEAD') || !url.startsWith(prefix)) return next(req, res);
        const ask = tileAsk(url, prefix.length, req, deps.config.trustedProxies);
        if (!ask) return next(req, res);
        const now = answerNow(ask);
        if (now) return writeAnswer(res, now, req.headers.origin, method === 'HEAD');
        if (now === null) return next(req, res);
        answer(ask).then(
          (found) => {
            if (found) writeAnswer(res, found, req.headers.origin, method === 'HEAD');
            else next(req, res);
          },
          () => next(req, res),
        );
      };
    },
  };
}

const tileRequest = (ask: TileAsk): TileRequest => ({
  level: ask.level,
  row: ask.row,
  col: ask.col,
  ifNoneMatch: ask.header('if-none-match'),
  vector: ask.serviceType === 'VectorTileServer',
});

/** `{name}/MapServer/tile/{level}/{row}/{col}[?query]` (or VectorTileServer) after the prefix. */
const TILE_PATH = /^([^/?]+)\/(MapServer|VectorTileServer)\/tile\/([^/?]+)\/([^/?]+)\/([^/?]+)(?:\?(.*))?$/;

function tileAsk(
  url: string,
  from: number,
  req: IncomingMessage,
  trustedProxies: number,
): TileAsk | undefined {
  const m = TILE_PATH.exec(from === 0 ? url : url.slice(from));
  if (!m) return undefined;
  let name: string;
  try {
    name = m[1].includes('%') ? decodeURIComponent(m[1]) : m[1];
  } catch {
    return undefined; // malformed escapes: the full stack says what is wrong
  }
  const headers = req.headers;
  const header = (h: string) => {
    const v = headers[h];
    return Array.isArray(v) ? v[0] : v;
  };
  return {
    serviceType: m[2] as TileServiceType,
    name,
    level: m[3],
    row: m[4],
    col: m[5],
    query: m[6] ?? '',
    header,
    address: clientAddressOf(req.socket.remoteAddress, header, trustedProxies),
  };
}

/** Writes an answer with the headers the routes' `tileResponse` gives and app.ts's cors() adds, in one call. */
function writeAnswer(res: ServerResponse, found: TileAnswer, origin: string | undefined, head: boolean) {
  if (found.status === 404) {
    const body = JSON.stringify(errorEnvelope(found.error));
    res.writeHead(404, [
      'Content-Type',
      'application/json',
      'Content-Length',
      String(Buffer.byteLength(body)),
      ...simpleCorsHeaders(origin),
    ]);
    res.end(head ? undefined : body);
    return;
  }
  const headers: string[] = [];
  for (const [name, value] of Object.entries(found.headers)) headers.push(name, value);
  headers.push(...simpleCorsHeaders(origin));
  res.writeHead(found.status, headers);
  res.end(found.status === 200 && !head ? found.bytes : undefined);
}

const MAX_QUERIES = 1_000;

/**
 * The `token` query parameter, read by the app's parameter rules (api/params.ts), remembered per query
 * string (a map client sends the same one with every tile). One per lean path: no module state.
 */
function createQueryTokens(): (query: string) => string | undefined {
  const seen = new Map<string, string | undefined>();
  return (query) => {
    if (!query) return undefined;
    if (seen.has(query)) return seen.get(query);
    const token = queryParam(query, 'token');
    if (seen.size >= MAX_QUERIES) seen.clear();
    seen.set(query, token);
    return token;
  };
}
