/**
 * The socket front: plain tile GETs read and answered on the connection itself, ahead of Node's HTTP
 * server. Node's server makes a parser callback, an IncomingMessage, a ServerResponse and a header
 * block per request; on this 2-core machine that held a bare Node server answering one fixed tile to
 * two thirds of nginx's rate, where a server that reads the request head and writes the response in
 * one corked write kept up with nginx (bench/README "Tiles"). Map clients send tiles by the hundred on
 * a few kept-alive connections, so those connections are answered here.
 *
 * A connection stays here while every request on it is a complete, plain HTTP/1.1 GET or HEAD of a tile
 * that the lean tile path (tile-fast-path.ts) answers. The first request that is anything else (another
 * URL or method, a body, an incomplete head, an odd header, a token the full stack must refuse) and
 * everything after it on that connection are handed to Node's HTTP server, exactly as it would have
 * received them: the server's own connection listener takes the socket and is given the unread bytes
 * first. So every error, limit and timeout of the HTTP server applies to whatever is not a tile.
 */

import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { SOAP_CONTENT_TYPE } from '../soap/dispatcher.js';
import { simpleCorsHeaders } from './cors.js';
import { closeWhenIdle, KEEP_ALIVE_CLOSE_MARGIN_MS } from './idle-close.js';
import type { TileAnswer } from './services/tile-serving.js';
import { readIntoSharedBuffer } from './shared-read-socket.js';
import type { AnswerBasis, TileFastPath, WireAnswer } from './tile-fast-path.js';
import { wireAnswer } from './tile-fast-path.js';

/** A tile request head is a few hundred bytes; a longer one goes to Node's parser and its limits. */
const MAX_HEAD = 8192;
/** Past this much unsent response data the connection stops reading until the client takes it. */
const MAX_UNSENT = 256 * 1024;

const STATUS_LINES: Record<number, string> = {
  200: 'HTTP/1.1 200 OK\r\n',
  304: 'HTTP/1.1 304 Not Modified\r\n',
  404: 'HTTP/1.1 404 Not Found\r\n',
};

/** Request headers the tile path reads; one of them twice sends the request to Node's server. */
const READ_HEADERS = new Set([
  'content-type',
  'soapaction',
  'authorization',
  'x-esri-authorization',
  'referer',
  'origin',
  'if-none-match',
  'x-forwarded-for',
]);

/** One request head this front reads: a GET or HEAD, or a POST with a small body of known length. */
export interface PlainRequest {
  method: 'GET' | 'HEAD' | 'POST';
  head: boolean;
  target: string;
  headers: Map<string, string>;
  /** The body's length (POST only; 0 for GET and HEAD, which carry none). */
  bodyLength: number;
  close: boolean;
}

export interface SocketFront {
  /** Ends the connections waiting for their next request (the HTTP server's closeIdleConnections). */
  closeIdle(): void;
  /** Ends every connection held here (closeAllConnections). */
  closeAll(): void;
}

/**
 * Puts the front between `server`'s listening socket and its HTTP connection listener. The server keeps
 * listening, closing and counting connections as before.
 */
export function attachSocketFront(server: Server, tiles: TileFastPath, basePath: string): SocketFront {
  const httpConnection = server.listeners('connection');
  if (httpConnection.length !== 1) throw new Error('the HTTP server has no single connection listener');
  const handOver = httpConnection[0] as (socket: Socket) => void;
  server.removeListener('connection', handOver);
  const held = new Map<Socket, { busy: boolean }>();
  // The last lines of every head (Date, Connection), made once a second.
  let endSecond = -1;
  let ends = { keepAlive: Buffer.alloc(0), close: Buffer.alloc(0) };
  const endLines = (at = Date.now()) => {
    const second = Math.floor(at / 1000);
    if (second !== endSecond) {
      endSecond = second;
      const date = `Date: ${new Date(second * 1000).toUTCString()}\r\n`;
      const timeout = Math.floor(server.keepAliveTimeout / 1000);
      ends = {
        keepAlive: Buffer.from(
          `${date}Connection: keep-alive\r\nKeep-Alive: timeout=${timeout}\r\n\r\n`,
          'latin1',
        ),
        close: Buffer.from(`${date}Connection: close\r\n\r\n`, 'latin1'),
      };
    }
    return ends;
  };
  const headOf = createHeadMemory();
  const replays = createReplays();

  // Connections are accepted without reading, to be moved to a socket that reads into the shared buffer.
  (server as unknown as { pauseOnConnect: boolean }).pauseOnConnect = true;

  server.on('connection', (accepted: Socket) => {
    const state = { busy: false };
    const moved = readIntoSharedBuffer(accepted, (data, length) => serve(data.subarray(0, length), 0));
    const socket = moved?.socket ?? accepted;
    held.set(socket, state);
    const onData = (chunk: Buffer) => serve(chunk, 0);
    /** Serves what it can of `data` from `from`; a request whose answer throws goes to Node's server. */
    const serve = (data: Buffer, from: number) => {
      const reached = { at: from };
      try {
        // One reading of the clock for all the replays' checks in this read (a clock call costs about
        // as much as the checks themselves).
        serveFrom(data, reached, Date.now());
      } catch {
        if (held.has(socket) && !socket.destroyed) toHttp(data.subarray(reached.at));
      }
    };
    const onError = () => socket.destroy();
    // Idle between requests for the server's keep-alive time (and the margin Node's server adds): closed
    // once any request already sent has been read, as Node's server closes it (closeIdleAfterReads).
    const onTimeout = () => {
      if (!state.busy) closeWhenIdle(socket, () => !state.busy && held.has(socket));
    };
    const onEnd = () => {
      // The client has sent its last request; once nothing is left to answer, close our side too.
      if (!state.busy) socket.end();
    };
    const onClose = () => held.delete(socket);
    if (!moved) {
      socket.on('data', onData);
      socket.resume();
    }
    socket.on('error', onError);
    socket.on('end', onEnd);
    socket.on('close', onClose);
    socket.on('timeout', onTimeout);
    socket.setTimeout(server.keepAliveTimeout + KEEP_ALIVE_CLOSE_MARGIN_MS);

    /**
     * Gives the connection to Node's HTTP server, `rest` being the bytes it has not seen yet. They may lie
     * in the shared read buffer: Node's parser reads them at once and copies what it keeps (header values,
     * body pieces), and the server reads the connection itself after them.
     */
    const toHttp = (rest: Buffer) => {
      moved?.release();
      socket.removeListener('data', onData);
      socket.removeListener('error', onError);
      socket.removeListener('end', onEnd);
      socket.removeListener('close', onClose);
      socket.removeListener('timeout', onTimeout);
      socket.setTimeout(0);
      held.delete(socket);
      handOver.call(server, socket);
      // Synchronously, before the parser reads anything more from the socket: order is kept.
      if (rest.length > 0) socket.emit('data', rest);
      if (socket.isPaused()) socket.resume();
    };

    const serveFrom = (data: Buffer, reached: { at: number }, readAt: number) => {
      while (reached.at < data.length) {
        const at = reached.at;
        const end = data.indexOf('\r\n\r\n', at, 'latin1');
        // A head still coming in parts (rare for a small GET) is Node's to wait for, with its timeouts.
        if (end < 0) return toHttp(data.subarray(at));
        const text = end - at <= MAX_HEAD ? data.toString('latin1', at, end) : undefined;
        const again = text === undefined ? undefined : replays.get(text);
        if (again?.basis.holds(socket.remoteAddress, readAt)) {
          reached.at = end + 4;
          // Remembered only for requests that keep the connection open.
          if (replay(again, readAt) || waitingForClient(data, reached.at)) return;
          continue;
        }
        const get = text === undefined ? undefined : readHead(text);
        if (get?.method === 'POST') {
          if (!serveSoap(data, reached, get, end + 4, readAt)) return;
          continue;
        }
        const ask = get && tiles.askOf(basePath, get.target, (h) => get.headers.get(h), socket.remoteAddress);
        if (!get || !ask) return toHttp(data.subarray(at));
        const now = tiles.answerNow(ask);
        if (now === null) return toHttp(data.subarray(at));
        if (now) {
          reached.at = end + 4;
          const written = writeTile(get, now, ask.header('origin'));
          if (written && text !== undefined && !get.close) {
            replays.remember(
              text,
              get,
              written,
              tiles.basisOf(ask, now, socket.remoteAddress),
              endLines().keepAlive,
            );
          }
          if (get.close || waitingForClient(data, reached.at)) return;
          continue;
        }
        // Something must be read first (a grant, a row, the tile): wait for it, reading nothing more. The
        // rest of the read is copied out of the shared buffer to be served after it.
        state.busy = true;
        socket.pause();
        const kept = Buffer.from(data.subarray(at));
        const next = end + 4 - at;
        tiles.answer(ask).then(
          (found) => {
            state.busy = false;
            if (socket.destroyed) return;
            if (!found) return toHttp(kept);
            try {
              writeTile(get, found, ask.header('origin'));
            } catch {
              return toHttp(kept);
            }
            if (!get.close) goOn(kept, next);
          },
          () => {
            state.busy = false;
            if (!socket.destroyed) toHttp(kept);
          },
        );
        return;
      }
    };

    /**
     * A SOAP GetMapTile POST whose body is all here: answered from memory, or after reading what memory
     * lacks (reading nothing more meanwhile). False when the loop must stop (waiting, handed on, closed).
     */
    const serveSoap = (
      data: Buffer,
      reached: { at: number },
      post: PlainRequest,
      bodyAt: number,
      readAt: number,
    ): boolean => {
      const at = reached.at;
      const bodyEnd = bodyAt + post.bodyLength;
      // The whole request (head and body, byte for byte) is what a GetMapTile answer is remembered by.
      const whole = bodyEnd <= data.length ? data.toString('latin1', at, bodyEnd) : undefined;
      const again = whole === undefined ? undefined : replays.get(whole);
      if (again?.basis.holds(socket.remoteAddress, readAt)) {
        reached.at = bodyEnd;
        return !replay(again, readAt) && !waitingForClient(data, bodyEnd);
      }
      const header = (h: string) => post.headers.get(h);
      const ask = tiles.soapAskOf(basePath, post.target, header, socket.remoteAddress);
      // A body still coming in parts is Node's to read, as is any POST that is no GetMapTile of a service.
      if (!ask || whole === undefined) {
        toHttp(data.subarray(at));
        return false;
      }
      ask.body = data.toString('utf8', bodyAt, bodyEnd);
      const now = tiles.soapAnswerNow(ask);
      if (now === null) {
        toHttp(data.subarray(at));
        return false;
      }
      if (now) {
        reached.at = bodyEnd;
        const head = headBytes(soapWire(now, header('origin')));
        if (send(post, head, now)) post.close = true;
        if (!post.close) {
          replays.remember(
            whole,
            post,
            { head, body: now },
            tiles.soapBasisOf(ask, socket.remoteAddress),
            endLines().keepAlive,
          );
        }
        return !post.close && !waitingForClient(data, bodyEnd);
      }
      state.busy = true;
      socket.pause();
      const kept = Buffer.from(data.subarray(at));
      tiles.soapAnswer(ask).then(
        (found) => {
          state.busy = false;
          if (socket.destroyed) return;
          if (!found) return toHttp(kept);
          write(post, soapWire(found, header('origin')));
          if (!post.close) goOn(kept, bodyEnd - at);
        },
        () => {
          state.busy = false;
          if (!socket.destroyed) toHttp(kept);
        },
      );
      return false;
    };

    const write = (get: PlainRequest, wire: WireAnswer) => {
      if (send(get, headBytes(wire), wire.body)) get.close = true;
    };

    /**
     * A tile answer: a 200 or 304 with its remembered head (returned with the body written, for the
     * replays), a 404 with its error body.
     */
    const writeTile = (
      get: PlainRequest,
      found: TileAnswer,
      origin: string | undefined,
    ): { head: Buffer; body: Uint8Array | undefined } | undefined => {
      if (found.status === 404) {
        write(get, wireAnswer(found, origin, get.head));
        return undefined;
      }
      const head = headOf(found, origin);
      const body = found.status === 200 && !get.head ? found.bytes : undefined;
      if (send(get, head, body)) get.close = true;
      return { head, body };
    };

    /** Writes a response: `head` (status line and headers), then Date and Connection, then `body`. */
    const send = (get: { close: boolean }, head: Buffer, body: Uint8Array | undefined) => {
      const closing = get.close || !server.listening;
      const tail = closing ? endLines().close : endLines().keepAlive;
      const lines = Buffer.allocUnsafe(head.length + tail.length);
      head.copy(lines, 0);
      tail.copy(lines, head.length);
      if (body) {
        socket.cork();
        socket.write(lines);
        socket.write(body);
        socket.uncork();
      } else socket.write(lines);
      if (closing) {
        socket.removeListener('data', onData);
        socket.end();
      }
      return closing;
    };

    /**
     * A remembered answer sent again: its whole response in one write, made again (not changed in place:
     * other connections may still be sending it) when the second in its Date line has passed. True when
     * the connection closes after it (the server has stopped listening).
     */
    const replay = (again: Replay, readAt: number): boolean => {
      if (!server.listening) {
        const { head, body } = partsOf(again);
        return send(KEEP_OPEN, head, body);
      }
      socket.write(replays.current(again, endLines(readAt).keepAlive));
      // Not all taken by the kernel: this connection still holds the buffer, which must not change.
      if (socket.writableLength > 0) again.held = true;
      return false;
    };

    /**
     * True when the client has not taken enough of what was written: reading and answering stop (the
     * rest of `data` from `next` included) until the socket drains, so a client that pipelines without
     * reading holds a bounded amount of response data.
     */
    const waitingForClient = (data: Buffer, next: number): boolean => {
      if (socket.writableLength <= MAX_UNSENT) return false;
      state.busy = true;
      socket.pause();
      const kept = Buffer.from(data.subarray(next));
      socket.once('drain', () => {
        state.busy = false;
        if (held.has(socket) && !socket.destroyed) goOn(kept, 0);
      });
      return true;
    };

    /** After an answer that waited (for a read or for the client): the rest of `data`, then reading again. */
    const goOn = (data: Buffer, next: number) => {
      if (waitingForClient(data, next)) return;
      socket.resume();
      serve(data, next);
      if (socket.readableEnded && !state.busy && held.has(socket)) socket.end();
    };
  });

  return {
    closeIdle() {
      for (const [socket, state] of held) if (!state.busy && socket.writableLength === 0) socket.end();
    },
    closeAll() {
      for (const socket of held.keys()) socket.destroy();
    },
  };
}

/** The status line and headers of an answer, up to its Date line. */
function headBytes(wire: WireAnswer): Buffer {
  let text = STATUS_LINES[wire.status];
  for (let i = 0; i < wire.headers.length; i += 2) text += `${wire.headers[i]}: ${wire.headers[i + 1]}\r\n`;
  return Buffer.from(text, 'latin1');
}

/** Requests whose answers are remembered for replay; all are forgotten when this many are held. */
const MAX_REPLAYS = 4096;
/** Bytes of whole responses (head, Date and Connection lines, tile) the replays may hold. */
const MAX_REPLAY_BYTES = 48 * 1024 ** 2;
/** Longer requests (a head, or a GetMapTile's head and body) are answered, not remembered. */
const MAX_REPLAY_REQUEST = 4096;

const KEEP_OPEN = { close: false };

export interface Replay {
  basis: AnswerBasis;
  /** The whole response: its head (`headLength` bytes), the keep-alive end lines in `ends`, its body. */
  whole: Buffer;
  headLength: number;
  ends: Buffer;
  /**
   * Whether a connection may still be sending `whole` (a write the kernel did not take at once): it is
   * then made anew for new end lines, not written over.
   */
  held: boolean;
}

/** A replay's head (status line and headers) and body, without its end lines. */
function partsOf(replay: Replay): { head: Buffer; body: Buffer | undefined } {
  const bodyAt = replay.headLength + replay.ends.length;
  return {
    head: replay.whole.subarray(0, replay.headLength),
    body: replay.whole.length > bodyAt ? replay.whole.subarray(bodyAt) : undefined,
  };
}

/**
 * Tile answers by the exact request that asked for them (a GET's head; a GetMapTile's head and body). A
 * map client's tiles are asked for again and again (by the same client and by every client showing the
 * same map), so the same request with the same basis (grant, cache row, access answer and tile, as the lean path's memos hold them now: see
 * AnswerBasis) gets the same response bytes again without reading the head, the path or the memos one
 * by one: most of what a warm tile cost in JavaScript (bench/README "Tiles", session 18). Each is held as
 * one whole response, sent in one write without joining its parts per request (bench/README "Tiles",
 * session 36), its Date line brought up to date once a second.
 */
export function createReplays() {
  const replays = new Map<string, Replay>();
  let bytes = 0;
  const join = (head: Buffer, ends: Buffer, body: Uint8Array | undefined): Buffer => {
    const whole = Buffer.allocUnsafe(head.length + ends.length + (body?.length ?? 0));
    head.copy(whole, 0);
    ends.copy(whole, head.length);
    if (body) whole.set(body, head.length + ends.length);
    return whole;
  };
  return {
    get: (text: string) => replays.get(text),
    /**
     * The replay's whole response with `ends` (this second's keep-alive end lines): its end lines written
     * over in place while no connection still holds it, a new buffer otherwise (a new one for each tile
     * each second made garbage enough to lengthen the collector's pauses: bench/README session 36).
     */
    current(replay: Replay, ends: Buffer): Buffer {
      if (replay.ends === ends) return replay.whole;
      if (!replay.held && replay.ends.length === ends.length) {
        ends.copy(replay.whole, replay.headLength);
        replay.ends = ends;
      } else {
        const { head, body } = partsOf(replay);
        const whole = join(head, ends, body);
        bytes += whole.length - replay.whole.length;
        replay.whole = whole;
        replay.ends = ends;
        replay.held = false;
      }
      return replay.whole;
    },
    remember(
      text: string,
      get: PlainRequest,
      written: { head: Buffer; body: Uint8Array | undefined },
      basis: AnswerBasis | undefined,
      ends: Buffer,
    ) {
      if (!basis || text.length > MAX_REPLAY_REQUEST || get.close) return;
      const whole = join(written.head, ends, written.body);
      if (replays.size >= MAX_REPLAYS || bytes + whole.length > MAX_REPLAY_BYTES) {
        replays.clear();
        bytes = 0;
      }
      const before = replays.get(text);
      if (before) bytes -= before.whole.length;
      replays.set(text, { basis, whole, headLength: written.head.length, ends, held: false });
      bytes += whole.length;
    },
  };
}

/** Remembered heads of 304 answers, by ETag; cleared when full. */
const MAX_NOT_MODIFIED_HEADS = 10_000;

/**
 * The head of a tile answer (status line and headers, up to its Date line), remembered: a map client
 * asks for the same tiles again and again, and making the head text and its bytes was a tenth of what a
 * warm tile cost (bench/README "Tiles"). A 200's head is kept with its tile's bytes (a tile the memory
 * lets go takes its head with it), a 304's by ETag, each with the headers and origin it was made for,
 * and made again when those differ.
 */
function createHeadMemory(): (
  found: Exclude<TileAnswer, { status: 404 }>,
  origin: string | undefined,
) => Buffer {
  type Head = { headers: Record<string, string>; origin: string | undefined; bytes: Buffer };
  const ok = new WeakMap<Uint8Array, Head>();
  const notModified = new Map<string, Head>();
  const fresh = (found: Exclude<TileAnswer, { status: 404 }>, origin: string | undefined): Head => ({
    headers: found.headers,
    origin,
    bytes: headBytes(wireAnswer(found, origin, true)),
  });
  return (found, origin) => {
    if (found.status === 200) {
      const known = ok.get(found.bytes);
      if (known && known.origin === origin && sameHeaders(known.headers, found.headers)) return known.bytes;
      const head = fresh(found, origin);
      ok.set(found.bytes, head);
      return head.bytes;
    }
    const etag = found.headers.ETag ?? '';
    const known = notModified.get(etag);
    if (known && known.origin === origin && sameHeaders(known.headers, found.headers)) return known.bytes;
    const head = fresh(found, origin);
    if (notModified.size >= MAX_NOT_MODIFIED_HEADS) notModified.clear();
    notModified.set(etag, head);
    return head.bytes;
  };
}

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  let count = 0;
  for (const name in a) {
    if (a[name] !== b[name]) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

/** A GetMapTile response envelope with the headers the lean path writes for it. */
function soapWire(envelope: Buffer, origin: string | undefined): WireAnswer {
  return {
    status: 200,
    headers: [
      'Content-Type',
      SOAP_CONTENT_TYPE,
      'Content-Length',
      String(envelope.length),
      ...simpleCorsHeaders(origin),
    ],
    body: envelope,
  };
}

/**
 * The head of a plain HTTP/1.1 GET or HEAD without a body, or undefined for anything else (which Node's
 * parser then reads): request line `METHOD target HTTP/1.1`, well-formed `name: value` lines, a Host,
 * no header this front does not answer as Node would (a body, an upgrade, an expectation, a header it
 * reads sent twice), and no control character but CR LF between lines and tabs in values.
 */
export function readHead(text: string): PlainRequest | undefined {
  let method: PlainRequest['method'];
  let at: number;
  if (text.startsWith('GET ')) {
    method = 'GET';
    at = 4;
  } else if (text.startsWith('HEAD ')) {
    method = 'HEAD';
    at = 5;
  } else if (text.startsWith('POST ')) {
    method = 'POST';
    at = 5;
  } else return undefined;
  const lineEnd = text.indexOf('\r\n', at);
  const requestLine = lineEnd < 0 ? text : text.slice(0, lineEnd);
  const space = requestLine.indexOf(' ', at);
  if (space < 0 || requestLine.slice(space) !== ' HTTP/1.1') return undefined;
  const target = requestLine.slice(at, space);
  if (target.length === 0 || target.charCodeAt(0) !== 0x2f) return undefined;
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) return undefined;
  }
  const headers = new Map<string, string>();
  let close = false;
  let host = false;
  let bodyLength = -1;
  let line = lineEnd < 0 ? text.length : lineEnd + 2;
  while (line < text.length) {
    let stop = text.indexOf('\r\n', line);
    if (stop < 0) stop = text.length;
    const colon = text.indexOf(':', line);
    if (colon <= line || colon > stop) return undefined;
    const name = text.slice(line, colon).toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) return undefined;
    const value = text.slice(colon + 1, stop).trim();
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if ((c < 0x20 && c !== 0x09) || c === 0x7f) return undefined;
    }
    if (name === 'host') {
      if (host) return undefined;
      host = true;
    } else if (name === 'content-length') {
      // A POST says how long its body is, once, in digits; a GET or HEAD with a body is Node's.
      if (method !== 'POST' || bodyLength >= 0 || !/^\d{1,9}$/.test(value)) return undefined;
      bodyLength = Number(value);
      headers.set(name, value);
    } else if (name === 'transfer-encoding' || name === 'expect' || name === 'upgrade') {
      return undefined;
    } else if (name === 'connection') {
      const tokens = value.toLowerCase().split(',');
      for (const t of tokens) {
        const token = t.trim();
        if (token === 'close') close = true;
        else if (token === 'upgrade') return undefined;
      }
    } else if (READ_HEADERS.has(name)) {
      if (headers.has(name)) return undefined;
      headers.set(name, value);
    }
    line = stop + 2;
  }
  if (!host || (method === 'POST' && bodyLength < 0)) return undefined;
  return { method, head: method === 'HEAD', target, headers, bodyLength: Math.max(0, bodyLength), close };
}
