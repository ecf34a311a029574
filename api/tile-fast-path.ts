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
 *
 * SOAP GetMapTile takes the same path: a small `text/xml` POST to `…/services/Hosted/{name}/MapServer` is
 * read whole, and a plain GetMapTile envelope (soap/get-map-tile-fast.ts) whose tile is there and whose
 * caller may read the service is answered from the same tile memory with the response the SOAP route
 * writes. Anything else, faults included, goes to the SOAP route with the body already read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROW_TTL_MS } from '../db/repositories/tile-cache-rows.js';
import type { TileCacheRow, TileServiceType } from '../db/repositories/tile-caches.js';
import type { UserRow } from '../db/repositories/users.js';
import type { TileLocation } from '../infra/tile-cache-store.js';
import { tileExtension } from '../lib/tiles/exploded-paths.js';
import type { TileAddress } from '../lib/tiles/web-mercator.js';
import { createTtlMemo } from '../lib/ttl-memo.js';
import { operationOfSoapAction, SOAP_CONTENT_TYPE } from '../soap/dispatcher.js';
import { getMapTileResponse, readGetMapTile } from '../soap/get-map-tile-fast.js';
import { checkTileAddress } from '../soap/handlers/cache-handlers.js';
import { checkMapName } from '../soap/handlers/map-context.js';
import type { GetMapTileRequest } from '../soap/schema/generated-types.js';
import { findTokenGrant, grantedUser, type RequestOrigin, type TokenGrant, tokenOf } from './auth.js';
import { clientAddressOf } from './client-address.js';
import { simpleCorsHeaders } from './cors.js';
import type { AppDeps } from './env.js';
import { queryParam } from './params.js';
import { errorEnvelope } from './render.js';
import { createServiceAuthorizer, type ServiceAudience } from './services/service-access.js';
import {
  answerTile,
  locateTile,
  type TileAnswer,
  type TileRequest,
  tileAnswerNow,
} from './services/tile-serving.js';

/** A token's grant is looked up again after this long, so a sign-out or a disabled user shows soon. */
const GRANT_TTL_MS = 5_000;
const MAX_GRANTS = 10_000;

type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** One tile request, as parsed from the request line and headers. */
export interface TileAsk {
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

/** Reads an ask out of a request target under `basePath`, its headers and the peer's address. */
type AskReader<T> = (
  basePath: string,
  target: string,
  header: (name: string) => string | undefined,
  socketAddress: string | undefined,
) => T | undefined;

export interface TileFastPath {
  /**
   * A request listener that answers tile GETs under `basePath` itself and hands everything else (and
   * every tile request the full stack must answer) to `next`, the app's listener.
   */
  nodeListener(basePath: string, next: NodeListener): NodeListener;
  /**
   * For the socket front (tile-socket-front.ts), which reads plain tile GETs off the connection itself:
   * the ask of a request target under `basePath`, or undefined when it names no tile.
   */
  askOf: AskReader<TileAsk>;
  /** The answer from memory alone: undefined when something must be read first, null for the full stack. */
  answerNow(ask: TileAsk): TileAnswer | null | undefined;
  /** The answer after reading what memory lacks, or undefined when the full stack must answer. */
  answer(ask: TileAsk): Promise<TileAnswer | undefined>;
  /**
   * What `answer`, just given by answerNow for `ask` on a connection from `socketAddress`, was made of;
   * undefined when it may not be given again without asking (a 404, or anything not from memory).
   */
  basisOf(ask: TileAsk, answer: TileAnswer, socketAddress: string | undefined): AnswerBasis | undefined;
  /**
   * For the socket front: the SOAP ask of a POST to `target` under `basePath` (its body still to be set),
   * or undefined when the request is no GetMapTile this path may read (path, type, length).
   */
  soapAskOf: AskReader<SoapTileAsk>;
  /** The GetMapTile response envelope from memory alone; undefined: read first; null: the route answers. */
  soapAnswerNow(ask: SoapTileAsk): Buffer | null | undefined;
  /** The GetMapTile response envelope after reading what memory lacks; undefined: the route answers. */
  soapAnswer(ask: SoapTileAsk): Promise<Buffer | undefined>;
  /** basisOf for a GetMapTile envelope soapAnswerNow has just given for `ask`. */
  soapBasisOf(ask: SoapTileAsk, socketAddress: string | undefined): AnswerBasis | undefined;
}

/**
 * What a tile answer from memory was made of: the token's grant, the cache row and the access answer as
 * their memos hold them, and for a 200 the tile's bytes in the tile memory. While each memo still holds
 * that very answer, asking again would give the same answer: `holds` says so, without redoing the rest.
 */
export interface AnswerBasis {
  /**
   * True while the same request, on a connection from `socketAddress`, has the same answer; `at` is
   * `Date.now()` (the tile memos' clock), read once by the caller for all it checks at that moment.
   */
  holds(socketAddress: string | undefined, at: number): boolean;
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
  const originOf = (ask: Pick<TileAsk, 'header' | 'address'>): RequestOrigin => ({
    referer: ask.header('referer'),
    address: ask.address,
  });

  /**
   * Who asks, from memory: `{ user }` (no user: anonymous), undefined when the token's grant must be
   * read first, null when the full stack must refuse the token.
   */
  function callerNow(
    ask: Pick<TileAsk, 'query' | 'header' | 'address'>,
  ): { user?: UserRow } | null | undefined {
    const token = tokenOf(queryToken(ask.query), ask.header);
    if (!token) return {};
    const hit = grants.peek(token);
    if (!hit) return undefined;
    const user = signedIn(hit.value, originOf(ask));
    return user ? { user } : null;
  }

  /**
   * The answer from memory alone, synchronously: `undefined` when something (a grant, a row, an access
   * answer, the tile) must be read first, `null` when the full stack must answer.
   */
  function answerNow(ask: TileAsk): TileAnswer | null | undefined {
    const caller = callerNow(ask);
    if (!caller) return caller;
    const { user } = caller;
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

  function basisOf(
    ask: TileAsk,
    answer: TileAnswer,
    socketAddress: string | undefined,
  ): AnswerBasis | undefined {
    if (answer.status === 404) return undefined;
    const bytes = answer.status === 200 ? answer.bytes : undefined;
    return basisFrom(ask, ask.serviceType, ask.name, socketAddress, (cache) => {
      if (!bytes) return undefined;
      const spot = locateTile(cache, tileRequest(ask));
      return spot ? { at: spot.at, tile: spot.tile, bytes } : null;
    });
  }

  function soapBasisOf(ask: SoapTileAsk, socketAddress: string | undefined): AnswerBasis | undefined {
    const q = readSoapAsk(ask);
    if (!q) return undefined;
    return basisFrom(ask, 'MapServer', ask.name, socketAddress, (cache) => {
      const at = cache.serviceType === 'MapServer' ? soapTileSpot(cache, q) : undefined;
      if (!at) return null;
      const tile = { level: q.Level, row: q.Row, col: q.Column };
      const bytes = reader.peekTile(at, tile);
      return bytes ? { at, tile, bytes } : null;
    });
  }

  /**
   * The basis of an answer from memory to `ask`: the token's grant, the cache row and the access answer
   * as the memos hold them now, and the tile `tileOf` names (undefined: a 304, which reads no tile; null:
   * no basis). Undefined when any is not in memory.
   */
  function basisFrom(
    ask: Pick<TileAsk, 'query' | 'header' | 'address'>,
    serviceType: TileServiceType,
    name: string,
    socketAddress: string | undefined,
    tileOf: (
      cache: TileCacheRow,
    ) => { at: TileLocation; tile: TileAddress; bytes: Uint8Array } | null | undefined,
  ): AnswerBasis | undefined {
    const token = tokenOf(queryToken(ask.query), ask.header);
    // Each part watched as the memos hold it now: the replay's checks read no map.
    const grant = token ? grants.watch(token) : undefined;
    const user = grant ? signedIn(grant.value, originOf(ask)) : undefined;
    if (token && !user) return undefined;
    const row = rows.watching(serviceType, name);
    if (!row) return undefined;
    const access = authorize.watching(row.value.serviceItemId, user);
    if (!access) return undefined;
    const spot = tileOf(row.value);
    if (spot === null) return undefined;
    const tile = spot && reader.watchTile(spot.at, spot.tile, spot.bytes);
    if (spot && !tile) return undefined;
    return {
      holds(address, at) {
        if (grant) {
          // The same grant, still in force, for a caller at the same address (a grant may be bound to one).
          if (address !== socketAddress || !grant.holds(at)) return false;
          if (!(grant.value && grant.value.expires > deps.now())) return false;
        }
        if (!row.holds(at) || !access.holds(at)) return false;
        // The tile still in memory (a use that keeps it there, as answering it would).
        return tile === undefined || tile();
      },
    };
  }

  /**
   * A GetMapTile answer from memory alone, as the SOAP route and its handler give it: the same access
   * check (the cache row by name, then the service's audience), map name, tile address and tile.
   * Undefined when something must be read first, null when the route must answer (a fault, or anything
   * this path does not read).
   */
  function soapAnswerNow(ask: SoapTileAsk): Buffer | null | undefined {
    const q = readSoapAsk(ask);
    if (!q) return null;
    const caller = callerNow(ask);
    if (!caller) return caller;
    const { user } = caller;
    const cache = rows.known('MapServer', ask.name);
    if (!cache) return undefined;
    if (cache.serviceType !== 'MapServer') return null;
    if (!authorize.known(cache.serviceItemId, user)) return undefined;
    const at = soapTileSpot(cache, q);
    if (!at) return null;
    const bytes = reader.peekTile(at, { level: q.Level, row: q.Row, col: q.Column });
    if (bytes === undefined) return undefined;
    return bytes ? getMapTileResponse(bytes) : null;
  }

  /** The GetMapTile request of a SOAP ask, or undefined when the route must read it. */
  function readSoapAsk(ask: SoapTileAsk): GetMapTileRequest | undefined {
    const q = readGetMapTile(ask.body);
    if (!q) return undefined;
    const action = operationOfSoapAction(ask.header('soapaction'));
    return action !== undefined && action !== 'GetMapTile' ? undefined : q;
  }

  /** soapAnswerNow after reading what memory lacks: undefined when the route must answer. */
  async function soapAnswer(ask: SoapTileAsk): Promise<Buffer | undefined> {
    const now = soapAnswerNow(ask);
    if (now !== undefined) return now ?? undefined;
    const q = readSoapAsk(ask);
    if (!q) return undefined;
    const token = tokenOf(queryToken(ask.query), ask.header);
    let user: UserRow | undefined;
    if (token) {
      const hit = grants.peek(token);
      user = hit ? signedIn(hit.value, originOf(ask)) : await userOf(token, originOf(ask));
      if (!user) return undefined;
    }
    const cache = rows.known('MapServer', ask.name) ?? (await rows(db, 'MapServer', ask.name));
    if (cache?.serviceType !== 'MapServer') return undefined;
    if (!authorize.known(cache.serviceItemId, user)) {
      try {
        await authorize(db, cache.serviceItemId, user);
      } catch {
        return undefined;
      }
    }
    const at = soapTileSpot(cache, q);
    if (!at) return undefined;
    const tile = { level: q.Level, row: q.Row, col: q.Column };
    let bytes = reader.peekTile(at, tile);
    if (bytes === undefined) {
      try {
        bytes = await reader.readTile(at, tile);
      } catch {
        return undefined;
      }
    }
    return bytes ? getMapTileResponse(bytes) : undefined;
  }

  return {
    askOf(basePath, target, header, socketAddress) {
      const prefix = `${basePath}/rest/services/Hosted/`;
      if (!target.startsWith(prefix)) return undefined;
      return tileAskOf(target.slice(prefix.length), header, socketAddress, deps.config.trustedProxies);
    },
    answerNow,
    answer,
    basisOf,
    soapBasisOf,
    soapAskOf(basePath, target, header, socketAddress) {
      const prefix = `${basePath}/services/Hosted/`;
      if (!target.startsWith(prefix)) return undefined;
      return soapAskOf(target.slice(prefix.length), header, socketAddress, deps.config.trustedProxies);
    },
    soapAnswerNow,
    soapAnswer,
    nodeListener(basePath, next) {
      const prefix = `${basePath}/rest/services/Hosted/`;
      const soapPrefix = `${basePath}/services/Hosted/`;
      const soap = (req: IncomingMessage, res: ServerResponse) => {
        const ask = soapTileAsk(req, soapPrefix.length, deps.config.trustedProxies);
        if (!ask) return next(req, res);
        readSmallBody(req).then(
          (body) => {
            ask.body = body.toString('utf8');
            const handOn = () => {
              // The route reads the body @hono/node-server finds here (its `rawBody`), as it would the stream.
              (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
              next(req, res);
            };
            soapAnswer(ask).then((found) => {
              if (!found) return handOn();
              res.writeHead(200, [
                'Content-Type',
                SOAP_CONTENT_TYPE,
                'Content-Length',
                String(found.length),
                ...simpleCorsHeaders(req.headers.origin),
              ]);
              res.end(found);
            }, handOn);
          },
          () => res.destroy(),
        );
      };
      return (req, res) => {
        const method = req.method;
        const url = req.url ?? '';
        if (method === 'POST' && url.startsWith(soapPrefix)) return soap(req, res);
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
  const headers = req.headers;
  const header = (h: string) => {
    const v = headers[h];
    return Array.isArray(v) ? v[0] : v;
  };
  return tileAskOf(from === 0 ? url : url.slice(from), header, req.socket.remoteAddress, trustedProxies);
}

/** The ask of `path` (the request target after the Hosted services prefix), or undefined for no tile. */
function tileAskOf(
  path: string,
  header: (name: string) => string | undefined,
  socketAddress: string | undefined,
  trustedProxies: number,
): TileAsk | undefined {
  const m = TILE_PATH.exec(path);
  if (!m) return undefined;
  let name: string;
  try {
    name = m[1].includes('%') ? decodeURIComponent(m[1]) : m[1];
  } catch {
    return undefined; // malformed escapes: the full stack says what is wrong
  }
  return {
    serviceType: m[2] as TileServiceType,
    name,
    level: m[3],
    row: m[4],
    col: m[5],
    query: m[6] ?? '',
    header,
    address: clientAddressOf(socketAddress, header, trustedProxies),
  };
}

/** An answer as the wire carries it: status, header names and values in turn, and the body (if any). */
export interface WireAnswer {
  status: 200 | 304 | 404;
  headers: string[];
  body: Uint8Array | undefined;
}

/** The headers the routes' `tileResponse` gives and app.ts's cors() adds, with the body, for one answer. */
export function wireAnswer(found: TileAnswer, origin: string | undefined, head: boolean): WireAnswer {
  if (found.status === 404) {
    const body = Buffer.from(JSON.stringify(errorEnvelope(found.error)));
    return {
      status: 404,
      headers: [
        'Content-Type',
        'application/json',
        'Content-Length',
        String(body.length),
        ...simpleCorsHeaders(origin),
      ],
      body: head ? undefined : body,
    };
  }
  const headers: string[] = [];
  for (const [name, value] of Object.entries(found.headers)) headers.push(name, value);
  headers.push(...simpleCorsHeaders(origin));
  return {
    status: found.status,
    headers,
    body: found.status === 200 && !head ? found.bytes : undefined,
  };
}

/** Writes an answer in one call on Node's response object. */
function writeAnswer(res: ServerResponse, found: TileAnswer, origin: string | undefined, head: boolean) {
  const wire = wireAnswer(found, origin, head);
  res.writeHead(wire.status, wire.headers);
  res.end(wire.body);
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

/** A SOAP request the lean path may read: a small XML body posted to a service's MapServer endpoint. */
export interface SoapTileAsk {
  name: string;
  query: string;
  header(name: string): string | undefined;
  address: string | undefined;
  /** Set once read. */
  body: string;
}

/** Larger bodies are no GetMapTile envelope the lean path reads (readGetMapTile takes 4 KiB at most). */
const MAX_SOAP_TILE_BODY = 4096;

const SOAP_PATH = /^([^/?]+)\/MapServer(?:\?(.*))?$/;

function soapTileAsk(req: IncomingMessage, from: number, trustedProxies: number): SoapTileAsk | undefined {
  const headers = req.headers;
  const header = (h: string) => {
    const v = headers[h];
    return Array.isArray(v) ? v[0] : v;
  };
  return soapAskOf((req.url ?? '').slice(from), header, req.socket.remoteAddress, trustedProxies);
}

/** The ask of a POST to `path` (after the Hosted services prefix), or undefined when this path must not read it. */
function soapAskOf(
  path: string,
  header: (name: string) => string | undefined,
  socketAddress: string | undefined,
  trustedProxies: number,
): SoapTileAsk | undefined {
  const m = SOAP_PATH.exec(path);
  if (!m) return undefined;
  const length = Number(header('content-length'));
  const type = header('content-type')?.toLowerCase() ?? '';
  if (
    !(length > 0 && length <= MAX_SOAP_TILE_BODY) ||
    header('transfer-encoding') !== undefined ||
    !(type === 'text/xml' || type.startsWith('text/xml;'))
  ) {
    return undefined;
  }
  let name: string;
  try {
    name = m[1].includes('%') ? decodeURIComponent(m[1]) : m[1];
  } catch {
    return undefined;
  }
  return {
    name,
    query: m[2] ?? '',
    header,
    address: clientAddressOf(socketAddress, header, trustedProxies),
    body: '',
  };
}

/** The whole body of a request whose Content-Length is small (checked by soapTileAsk). */
function readSmallBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once('error', reject);
    // A client that goes away mid-body: nothing to answer, and nothing left waiting.
    req.once('close', () => {
      if (!req.complete) reject(new Error('the request was aborted'));
    });
  });
}

/**
 * Where GetMapTile's tile is, after the checks its handler makes (map name, level, row, column, format),
 * or undefined when the handler would fault.
 */
function soapTileSpot(cache: TileCacheRow, q: GetMapTileRequest): TileLocation | undefined {
  try {
    checkMapName(q.MapName);
    checkTileAddress(cache.definition, q.Level, q.Row, q.Column, q.Format);
  } catch {
    return undefined;
  }
  return {
    serviceItemId: cache.serviceItemId,
    generation: cache.generation,
    storage: cache.definition.storage,
    extension: tileExtension(cache.definition.format),
  };
}
