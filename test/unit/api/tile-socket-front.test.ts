import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, Server as NetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeIdleAfterReads } from '../../../api/idle-close.js';
import type { TileAnswer } from '../../../api/services/tile-serving.js';
import type { TileAsk, TileFastPath } from '../../../api/tile-fast-path.js';
import { wireAnswer } from '../../../api/tile-fast-path.js';
import { attachSocketFront, createReplays, readHead } from '../../../api/tile-socket-front.js';
import { GeoError } from '../../../lib/errors.js';

/**
 * The front on a real Node HTTP server and real sockets. The tile source is a stand-in: level 1 is in
 * memory, level 2 must be read first (answered after a delay), level 3 is the full stack's to answer.
 * The server's own listener answers tiles the way the lean path does (wireAnswer on Node's response) and
 * records each request it answers, so each test can tell which of the two answered.
 */
const BODY = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) & 255));

function answerOf(ask: TileAsk): TileAnswer {
  if (ask.row === '404') {
    return { status: 404, error: new GeoError({ code: 404, message: 'Tile not found', details: ['none'] }) };
  }
  const etag = `"t-${ask.level}-${ask.row}-${ask.col}"`;
  // A stand-in for a service shared otherwise between two requests.
  const cacheControl = ask.header('referer') === 'private' ? 'private, max-age=0' : 'public, max-age=60';
  if (ask.header('if-none-match') === etag) {
    return { status: 304, headers: { ETag: etag, 'Cache-Control': cacheControl } };
  }
  // Row 65536 asks for a big tile (64 KiB), for the test of a client that does not read.
  const fill = ask.row === '65536' ? Buffer.alloc(65_536, 1) : BODY;
  const key = `${ask.level}/${ask.row}/${ask.col}`;
  // As the tile memory does, a tile asked again is the same bytes.
  const body = bodies.get(key) ?? Buffer.concat([fill, Buffer.from(key)]);
  bodies.set(key, body);
  return {
    status: 200,
    bytes: body,
    headers: {
      'Content-Type': 'image/png',
      'Content-Length': String(body.length),
      ETag: etag,
      'Cache-Control': cacheControl,
      'X-Content-Type-Options': 'nosniff',
    },
  };
}
const bodies = new Map<string, Buffer>();

const soapEnvelope = (body: string) => Buffer.from(`<Envelope>${body}</Envelope>`);
const soapPost = (level: number, extra = '') => {
  const body = `<GetMapTile><Level>${level}</Level></GetMapTile>`;
  return `POST /services/Hosted/pts/MapServer HTTP/1.1\r\nHost: test\r\nContent-Type: text/xml\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;
};

const PATH = /^\/rest\/services\/Hosted\/([^/]+)\/MapServer\/tile\/(\d+)\/(\d+)\/(\d+)$/;

function standInTiles(): TileFastPath {
  return {
    nodeListener: () => () => {},
    askOf(basePath, target, header) {
      const m = PATH.exec(target.slice(basePath.length));
      if (!m) return undefined;
      return {
        serviceType: 'MapServer',
        name: m[1],
        level: m[2],
        row: m[3],
        col: m[4],
        query: '',
        header,
        address: undefined,
      };
    },
    answerNow: (ask) => {
      answeredNow++;
      return ask.level === '1' ? answerOf(ask) : ask.level === '2' ? undefined : null;
    },
    answer: (ask) =>
      new Promise((resolve) => setTimeout(() => resolve(ask.level === '2' ? answerOf(ask) : undefined), 20)),
    basisOf: (_ask, answer, socketAddress) => {
      if (answer.status === 404) return undefined;
      const made = basisVersion;
      return {
        holds: (address) => {
          heldFor.push(address);
          return address === socketAddress && basisVersion === made;
        },
      };
    },
    soapAskOf(basePath, target, header) {
      if (target !== `${basePath}/services/Hosted/pts/MapServer`) return undefined;
      // As the lean path does: the type and the length from the headers.
      if (header('content-type') !== 'text/xml' || !(Number(header('content-length')) > 0)) return undefined;
      return { name: 'pts', query: '', header, address: undefined, body: '' };
    },
    soapBasisOf: (_ask, socketAddress) => {
      const made = basisVersion;
      return { holds: (address) => address === socketAddress && basisVersion === made };
    },
    soapAnswerNow: (ask) => {
      soapAnsweredNow++;
      const level = /<Level>(\d)<\/Level>/.exec(ask.body)?.[1];
      return level === '1' ? soapEnvelope(ask.body) : level === '2' ? undefined : null;
    },
    soapAnswer: (ask) =>
      new Promise((resolve) =>
        setTimeout(
          () => resolve(ask.body.includes('<Level>2</Level>') ? soapEnvelope(ask.body) : undefined),
          20,
        ),
      ),
  };
}

let server: HttpServer | undefined;
let answeredNow = 0;
let soapAnsweredNow = 0;
/** What the stand-in's answers are made of: a new version and no remembered answer holds. */
let basisVersion = 0;
/** The socket addresses the front asked a basis about. */
const heldFor: (string | undefined)[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  if (server) await new Promise((r) => server?.close(r));
  server = undefined;
});

async function start(): Promise<{ port: number; httpAnswered: string[] }> {
  const httpAnswered: string[] = [];
  const tiles = standInTiles();
  const s = createServer((req: IncomingMessage, res: ServerResponse) => {
    httpAnswered.push(`${req.method} ${req.url}`);
    const header = (h: string) => {
      const v = req.headers[h];
      return Array.isArray(v) ? v[0] : v;
    };
    const ask = tiles.askOf('', req.url ?? '', header, undefined);
    if (ask) {
      const wire = wireAnswer(answerOf(ask), header('origin'), req.method === 'HEAD');
      res.writeHead(wire.status, wire.headers);
      res.end(wire.body);
      return;
    }
    const other = Buffer.from(`other ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(other.length) });
    res.end(other);
  });
  const front = attachSocketFront(s, tiles, '');
  // As serveApp does.
  closeIdleAfterReads(s);
  const closeIdle = s.closeIdleConnections.bind(s);
  s.closeIdleConnections = () => {
    front.closeIdle();
    closeIdle();
  };
  server = s;
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { port: (s.address() as { port: number }).port, httpAnswered };
}

/** Writes `chunks` (each after the previous is sent) and reads until `responses` responses have come. */
async function exchange(
  port: number,
  chunks: string[],
  responses: number,
  heads: boolean[] = [],
): Promise<Buffer> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  await new Promise((r) => socket.once('connect', r));
  const got: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    socket.on('data', (d) => {
      got.push(d);
      if (splitResponses(Buffer.concat(got), heads).length >= responses) resolve();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
  for (const c of chunks) {
    socket.write(c);
    await new Promise((r) => setTimeout(r, 30));
  }
  await done;
  return Buffer.concat(got);
}

interface Parsed {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** Bytes of the response on the wire. */
  size: number;
}

/** Splits HTTP/1.1 responses by their Content-Length (304s and HEAD answers to a HEAD carry no body). */
function splitResponses(all: Buffer, heads: boolean[] = []): Parsed[] {
  const out: Parsed[] = [];
  let at = 0;
  while (at < all.length) {
    const end = all.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const lines = all.toString('latin1', at, end).split('\r\n');
    const status = Number(lines[0].split(' ')[1]);
    const headers = lines.slice(1).map((l) => {
      const i = l.indexOf(':');
      return [l.slice(0, i).toLowerCase(), l.slice(i + 1).trim()] as [string, string];
    });
    const length = status === 304 || heads[out.length] ? 0 : Number(headerOf(headers, 'content-length') ?? 0);
    if (all.length < end + 4 + length) break;
    out.push({ status, headers, body: all.subarray(end + 4, end + 4 + length), size: end + 4 + length - at });
    at = end + 4 + length;
  }
  return out;
}

/**
 * Resumes a paused socket and reads `count` responses of big tiles (row 65536: 64 KiB and the key) as they
 * come, each whole response let go once parsed; the keys they end with.
 */
async function bigTileKeys(socket: Socket, count: number): Promise<string[]> {
  let rest = Buffer.alloc(0);
  const keys: string[] = [];
  await new Promise<void>((resolve) => {
    socket.on('data', (d: Buffer) => {
      rest = Buffer.concat([rest, d]);
      const parsed = splitResponses(rest);
      for (const p of parsed) keys.push(p.body.subarray(65_536).toString());
      rest = rest.subarray(parsed.reduce((n, p) => n + p.size, 0));
      if (keys.length >= count) resolve();
    });
    socket.resume();
  });
  return keys;
}

const headerOf = (headers: [string, string][], name: string) => headers.find(([n]) => n === name)?.[1];
const withoutDate = ({ size: _, ...p }: Parsed) => ({
  ...p,
  headers: p.headers.filter(([n]) => n !== 'date'),
});
const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: test\r\n${extra}\r\n`;
const tile = (z: number, y: number, x: number) => `/rest/services/Hosted/pts/MapServer/tile/${z}/${y}/${x}`;

describe('socket front', () => {
  it('answers kept-alive tile GETs itself with the bytes Node gives for the same answer', async () => {
    const { port, httpAnswered } = await start();
    const front = splitResponses(
      await exchange(port, [get(tile(1, 0, 1), 'Origin: https://maps.example\r\n'), get(tile(1, 1, 1))], 2),
    );
    expect(httpAnswered).toEqual([]);
    expect(front.map((r) => r.status)).toEqual([200, 200]);
    expect(front[1].body.equals(Buffer.concat([BODY, Buffer.from('1/1/1')]))).toBe(true);
    expect(headerOf(front[0].headers, 'date')).toMatch(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
    // The same requests after a non-tile one go through Node's server: the same responses but for Date.
    const viaNode = splitResponses(
      await exchange(
        port,
        [get('/info') + get(tile(1, 0, 1), 'Origin: https://maps.example\r\n') + get(tile(1, 1, 1))],
        3,
      ),
    );
    expect(httpAnswered).toEqual(['GET /info', `GET ${tile(1, 0, 1)}`, `GET ${tile(1, 1, 1)}`]);
    expect(viaNode.slice(1).map(withoutDate)).toEqual(front.map(withoutDate));
  });

  it('writes a remembered head only for the same headers and origin: each answer is the one Node gives', async () => {
    const { port, httpAnswered } = await start();
    const asks = [
      '',
      '',
      'Origin: https://maps.example\r\n',
      'Origin: https://other.example\r\n',
      'Referer: private\r\n',
      '',
      'If-None-Match: "t-1-3-3"\r\n',
      'If-None-Match: "t-1-3-3"\r\nReferer: private\r\n',
      'If-None-Match: "t-1-3-3"\r\nOrigin: https://maps.example\r\n',
    ];
    const front = splitResponses(await exchange(port, [asks.map((h) => get(tile(1, 3, 3), h)).join('')], 9));
    expect(httpAnswered).toEqual([]);
    const viaNode = splitResponses(
      await exchange(port, [get('/info') + asks.map((h) => get(tile(1, 3, 3), h)).join('')], 10),
    );
    expect(httpAnswered.length).toBe(10);
    expect(front.map(withoutDate)).toEqual(viaNode.slice(1).map(withoutDate));
    expect(front.map((r) => headerOf(r.headers, 'cache-control'))).toEqual([
      ...['public, max-age=60', 'public, max-age=60', 'public, max-age=60', 'public, max-age=60'],
      ...['private, max-age=0', 'public, max-age=60', 'public, max-age=60', 'private, max-age=0'],
      'public, max-age=60',
    ]);
    expect(
      new Set(front.map((r) => headerOf(r.headers, 'access-control-allow-origin'))).size,
    ).toBeGreaterThan(1);
  });

  it('answers a head asked again from the remembered answer while its basis holds, as the first time', async () => {
    const { port, httpAnswered } = await start();
    const before = answeredNow;
    heldFor.length = 0;
    const again = [
      get(tile(1, 5, 5)),
      get(tile(1, 5, 5)),
      get(tile(1, 5, 5), 'If-None-Match: "t-1-5-5"\r\n'),
    ];
    const first = splitResponses(await exchange(port, [again.join('')], 3));
    // The second GET is the first one's head again: replayed, with no answer asked of the tile path.
    expect(answeredNow - before).toBe(2);
    expect(heldFor).toEqual(['127.0.0.1']);
    expect(first.map((r) => r.status)).toEqual([200, 200, 304]);
    expect(withoutDate(first[1])).toEqual(withoutDate(first[0]));
    // On another connection, the same three: all replayed (the 304 too), the same bytes but for Date.
    const second = splitResponses(await exchange(port, [again.join('')], 3));
    expect(answeredNow - before).toBe(2);
    expect(second.map(withoutDate)).toEqual(first.map(withoutDate));
    // Once the basis no longer holds (a grant, a row, an access answer or the tile changed), asked again.
    basisVersion++;
    const third = splitResponses(await exchange(port, [again.join('')], 3));
    expect(answeredNow - before).toBe(4);
    expect(third.map(withoutDate)).toEqual(first.map(withoutDate));
    // Node's server answers the same requests with the same bytes.
    const viaNode = splitResponses(await exchange(port, [get('/info') + again.join('')], 4));
    expect(httpAnswered.length).toBe(4);
    expect(viaNode.slice(1).map(withoutDate)).toEqual(first.map(withoutDate));
  });

  it('replays an answer with the Date of the second it is written in, the rest byte for byte', async () => {
    const { port } = await start();
    const second = 1_790_000_000_000;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(second);
      const first = splitResponses(await exchange(port, [get(tile(1, 6, 6)).repeat(2)], 2));
      vi.setSystemTime(second + 5_000);
      const later = splitResponses(await exchange(port, [get(tile(1, 6, 6))], 1));
      expect(first.map((r) => headerOf(r.headers, 'date'))).toEqual([
        new Date(second).toUTCString(),
        new Date(second).toUTCString(),
      ]);
      expect(headerOf(later[0].headers, 'date')).toBe(new Date(second + 5_000).toUTCString());
      expect(withoutDate(later[0])).toEqual(withoutDate(first[0]));
      expect(later[0].body.equals(first[0].body)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('replays an answer with Connection: close once the server has stopped listening, and closes', async () => {
    const { port } = await start();
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    await new Promise((r) => socket.once('connect', r));
    const got: Buffer[] = [];
    const closed = new Promise((r) => socket.once('close', r));
    const answers = async (count: number) => {
      while (splitResponses(Buffer.concat(got)).length < count)
        await new Promise((r) => socket.once('data', r));
      return splitResponses(Buffer.concat(got));
    };
    socket.on('data', (d: Buffer) => got.push(d));
    // The second GET is replayed.
    socket.write(get(tile(1, 6, 6)).repeat(2));
    const first = await answers(2);
    expect(first.map((a) => headerOf(a.headers, 'connection'))).toEqual(['keep-alive', 'keep-alive']);
    // The listening socket closed with this connection still open, as when a request comes in just as
    // the server closes (net's close alone: the HTTP server's would also end the idle connection first).
    NetServer.prototype.close.call(server);
    socket.write(get(tile(1, 6, 6)));
    await closed;
    const all = splitResponses(Buffer.concat(got));
    expect(all).toHaveLength(3);
    expect(headerOf(all[2].headers, 'connection')).toBe('close');
    const lasting = (p: Parsed) => ({
      ...withoutDate(p),
      headers: withoutDate(p).headers.filter(([n]) => n !== 'connection' && n !== 'keep-alive'),
    });
    expect(lasting(all[2])).toEqual(lasting(first[1]));
    expect(all[2].body.equals(first[0].body)).toBe(true);
  });

  it('replays a GetMapTile POST sent again byte for byte, and asks again for another body', async () => {
    const { port, httpAnswered } = await start();
    const before = soapAnsweredNow;
    const posts = [soapPost(1), soapPost(1), soapPost(1, 'Origin: https://maps.example\r\n')];
    const first = splitResponses(await exchange(port, [posts.join('')], 3));
    expect(soapAnsweredNow - before).toBe(2);
    expect(first.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(withoutDate(first[1])).toEqual(withoutDate(first[0]));
    expect(headerOf(first[2].headers, 'access-control-allow-origin')).toBe('https://maps.example');
    basisVersion++;
    const again = splitResponses(await exchange(port, [posts.join('')], 3));
    expect(soapAnsweredNow - before).toBe(4);
    expect(again.map(withoutDate)).toEqual(first.map(withoutDate));
    expect(httpAnswered).toEqual([]);
  });

  it('remembers neither a request that closes its connection, nor a 404, nor a head differing in a byte', async () => {
    const { port } = await start();
    const before = answeredNow;
    const asks = [
      get(tile(1, 6, 6), 'Connection: close\r\n'),
      get(tile(1, 404, 6)),
      get(tile(1, 404, 6)),
      get(tile(1, 6, 6), 'Origin: https://a.example\r\n'),
      get(tile(1, 6, 6), 'Origin: https://b.example\r\n'),
      get(tile(1, 6, 6), 'Connection: close\r\n'),
    ];
    for (const ask of asks) await exchange(port, [ask], 1);
    expect(answeredNow - before).toBe(6);
    // HEAD and GET of one tile are two heads: each answered as itself, the HEAD with no body.
    const heads = [false, true, false];
    const both = splitResponses(
      await exchange(
        port,
        [get(tile(1, 6, 6)) + get(tile(1, 6, 6)).replace('GET', 'HEAD') + get(tile(1, 6, 6))],
        3,
        heads,
      ),
      heads,
    );
    expect(both.map((r) => r.body.length)).toEqual([3005, 0, 3005]);
    expect(headerOf(both[1].headers, 'content-length')).toBe('3005');
  });

  it('answers pipelined requests in order, handing the connection to Node at the first it does not answer', async () => {
    const { port, httpAnswered } = await start();
    const all = splitResponses(
      await exchange(
        port,
        [
          get(tile(1, 2, 2)) +
            get(tile(2, 3, 3)) +
            get(tile(1, 4, 4)) +
            get(tile(3, 5, 5)) +
            get(tile(1, 6, 6)),
        ],
        5,
      ),
    );
    expect(all.map((r) => r.body.subarray(BODY.length).toString())).toEqual([
      '1/2/2',
      '2/3/3',
      '1/4/4',
      '3/5/5',
      '1/6/6',
    ]);
    // Level 3 is the full stack's: from it on, Node's server answers everything on that connection.
    expect(httpAnswered).toEqual([`GET ${tile(3, 5, 5)}`, `GET ${tile(1, 6, 6)}`]);
  });

  it('answers 304, 404 and HEAD as Node does, and closes after Connection: close', async () => {
    const { port, httpAnswered } = await start();
    const raw = await exchange(
      port,
      [
        get(tile(1, 7, 7), 'If-None-Match: "t-1-7-7"\r\n') +
          get(tile(1, 404, 0)) +
          `HEAD ${tile(1, 8, 8)} HTTP/1.1\r\nHost: test\r\n\r\n` +
          get(tile(1, 9, 9), 'Connection: close\r\n'),
      ],
      4,
    );
    const [notModified, notFound, head, last] = splitResponses(raw, [false, false, true, false]);
    expect(httpAnswered).toEqual([]);
    expect(notModified.status).toBe(304);
    expect(headerOf(notModified.headers, 'content-length')).toBeUndefined();
    expect(notFound.status).toBe(404);
    expect(JSON.parse(notFound.body.toString()).error.code).toBe(404);
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(headerOf(head.headers, 'content-length')).toBe(String(BODY.length + 5));
    expect(headerOf(last.headers, 'connection')).toBe('close');
    expect(last.body.subarray(BODY.length).toString()).toBe('1/9/9');
  });

  it('leaves to Node a head in parts, a body, a header it reads twice, and anything malformed', async () => {
    const { port, httpAnswered } = await start();
    const split = get(tile(1, 1, 2));
    const parts = splitResponses(await exchange(port, [split.slice(0, 20), split.slice(20)], 1));
    expect(parts[0].body.subarray(BODY.length).toString()).toBe('1/1/2');
    const twice = splitResponses(
      await exchange(port, [get(tile(1, 1, 3), 'Authorization: Bearer a\r\nAuthorization: Bearer b\r\n')], 1),
    );
    expect(twice[0].status).toBe(200);
    const body = splitResponses(
      await exchange(port, [`GET ${tile(1, 1, 4)} HTTP/1.1\r\nHost: test\r\nContent-Length: 2\r\n\r\nab`], 1),
    );
    expect(body[0].status).toBe(200);
    expect(httpAnswered).toEqual([`GET ${tile(1, 1, 2)}`, `GET ${tile(1, 1, 3)}`, `GET ${tile(1, 1, 4)}`]);
    // A bare LF inside a header: Node's parser refuses it with its own 400.
    const bad = splitResponses(
      await exchange(port, [`GET ${tile(1, 1, 5)} HTTP/1.1\r\nHost: a\nb\r\n\r\n`], 1),
    );
    expect(bad[0].status).toBe(400);
    expect(httpAnswered).toHaveLength(3);
  });

  it('stops answering a client that pipelines without reading, and goes on in order once it reads', async () => {
    const { port } = await start();
    answeredNow = 0;
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    await new Promise((r) => socket.once('connect', r));
    socket.pause();
    const count = 1000; // 64 MiB of answers if all were written at once
    socket.write(Array.from({ length: count }, (_, i) => get(tile(1, 65536, i))).join(''));
    await new Promise((r) => setTimeout(r, 300));
    // The kernel's buffers and the front's bound hold a few MiB: far fewer than all the answers.
    expect(answeredNow).toBeGreaterThan(0);
    expect(answeredNow).toBeLessThan(count / 4);
    expect(await bigTileKeys(socket, count)).toEqual(Array.from({ length: count }, (_, i) => `1/65536/${i}`));
  }, 30_000);

  it('lets the server close promptly with a kept-alive connection idle in the front', async () => {
    const { port } = await start();
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const closed = new Promise((r) => socket.once('close', r));
    socket.write(get(tile(1, 3, 3)));
    await new Promise((r) => socket.once('data', r));
    const began = Date.now();
    await new Promise((r) => server?.close(r));
    server = undefined;
    await closed;
    // Node's keep-alive timeout is 5 s: the close must not have waited for it.
    expect(Date.now() - began).toBeLessThan(2000);
  });
});

/**
 * Every connection is read into one buffer: what a connection sent and the front keeps for later must
 * not be what another connection sent since into the same place. The other connection here sends
 * requests of the same lengths differing in a digit, at the same offsets.
 */
describe('socket front, one read buffer for all connections', () => {
  /** Sends `requests` on a new connection and reads `responses` answers, without waiting for them. */
  const other = (port: number, requests: string, responses: number) =>
    exchange(port, [requests], responses).then((raw) => splitResponses(raw));
  const keys = (all: Parsed[]) => all.map((r) => r.body.subarray(BODY.length).toString());

  it('answers the requests behind a tile being read as they were sent, though other connections were read meanwhile', async () => {
    const { port } = await start();
    const first = exchange(port, [get(tile(2, 3, 3)) + get(tile(1, 4, 4)) + get(tile(1, 6, 6))], 3);
    await new Promise((r) => setTimeout(r, 5));
    // Read while level 2 is being read (20 ms): the same offsets as the first connection's requests.
    const meanwhile = await other(port, get(tile(1, 8, 8)) + get(tile(1, 9, 9)) + get(tile(1, 7, 7)), 3);
    expect(keys(meanwhile)).toEqual(['1/8/8', '1/9/9', '1/7/7']);
    expect(keys(splitResponses(await first))).toEqual(['2/3/3', '1/4/4', '1/6/6']);
  });

  it('answers the requests behind a client that stopped reading as they were sent, once it reads', async () => {
    const { port } = await start();
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    await new Promise((r) => socket.once('connect', r));
    socket.pause();
    const count = 300;
    socket.write(Array.from({ length: count }, (_, i) => get(tile(1, 65536, 1000 + i))).join(''));
    await new Promise((r) => setTimeout(r, 200));
    // As many requests of the same lengths: one read covers every offset the first connection's took.
    const meanwhile = await other(
      port,
      Array.from({ length: count }, (_, i) => get(tile(1, 65537, 1000 + i))).join(''),
      count,
    );
    expect(meanwhile.length).toBe(count);
    expect(await bigTileKeys(socket, count)).toEqual(
      Array.from({ length: count }, (_, i) => `1/65536/${1000 + i}`),
    );
  }, 30_000);
});

describe('socket front, kept-alive connections', () => {
  it('reads a request sent just before the idle time ran out while the event loop was held, in the front and in Node', async () => {
    const { port, httpAnswered } = await start();
    (server as HttpServer).keepAliveTimeout = 100;
    // A tile the front answers, and a path it hands to Node's server with the connection.
    for (const path of [tile(1, 4, 4), '/other']) {
      const socket = connect(port, '127.0.0.1');
      sockets.push(socket);
      await new Promise((r) => socket.once('connect', r));
      const got: Buffer[] = [];
      const errors: string[] = [];
      let responses = 0;
      let waiting = { n: 0, resolve: () => {} };
      const check = () => {
        responses = splitResponses(Buffer.concat(got)).length;
        if (responses >= waiting.n || socket.destroyed) waiting.resolve();
      };
      socket.on('data', (d) => {
        got.push(d);
        check();
      });
      socket.on('close', check);
      const arrived = (n: number) =>
        new Promise<void>((resolve) => {
          waiting = { n, resolve };
          check();
        });
      socket.on('error', (e: NodeJS.ErrnoException) => errors.push(e.code ?? e.message));
      const closed = new Promise((r) => socket.once('close', r));
      socket.write(get(path));
      await arrived(1);
      // The next request goes out, then the loop is held past the idle time (100 ms and the 1 s margin):
      // when it runs again, the connection's timer is due before its read.
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          socket.write(get(path));
          const until = Date.now() + 1_500;
          while (Date.now() < until) {}
          resolve();
        }),
      );
      await arrived(2);
      // The connection stays open for the requests after it.
      if (!socket.destroyed) socket.write(get(path));
      await arrived(3);
      expect({ path, responses, errors }).toEqual({ path, responses: 3, errors: [] });
      // Idle again, the connection is still closed after its time.
      const began = Date.now();
      await closed;
      expect(Date.now() - began).toBeLessThan(3_000);
    }
    expect(httpAnswered).toEqual(['GET /other', 'GET /other', 'GET /other']);
  }, 20_000);
});

describe('socket front, SOAP GetMapTile', () => {
  it('answers a GetMapTile POST whose body is here, in order with the GETs around it', async () => {
    const { port, httpAnswered } = await start();
    const all = splitResponses(
      await exchange(port, [get(tile(1, 1, 1)) + soapPost(1) + soapPost(2) + get(tile(1, 2, 2))], 4),
    );
    expect(httpAnswered).toEqual([]);
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(all[1].body.toString()).toBe('<Envelope><GetMapTile><Level>1</Level></GetMapTile></Envelope>');
    expect(all[2].body.toString()).toBe('<Envelope><GetMapTile><Level>2</Level></GetMapTile></Envelope>');
    expect(headerOf(all[1].headers, 'content-type')).toBe('text/xml; charset=utf-8');
    expect(all[3].body.subarray(BODY.length).toString()).toBe('1/2/2');
  });

  it('leaves to Node a body still coming, a POST it does not read, and one the route must answer', async () => {
    const { port, httpAnswered } = await start();
    const post = soapPost(1);
    const split = post.length - 10;
    await exchange(port, [post.slice(0, split), post.slice(split)], 1);
    await exchange(port, [soapPost(3)], 1);
    await exchange(port, [soapPost(1).replace('text/xml', 'application/json')], 1);
    expect(httpAnswered).toEqual([
      'POST /services/Hosted/pts/MapServer',
      'POST /services/Hosted/pts/MapServer',
      'POST /services/Hosted/pts/MapServer',
    ]);
  });
});

describe('createReplays', () => {
  const basis = { holds: () => true };
  const request = {
    method: 'GET' as const,
    head: false,
    target: '/t',
    headers: new Map(),
    bodyLength: 0,
    close: false,
  };
  const head = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n', 'latin1');
  const endsAt = (time: string) => Buffer.from(`Date: ${time}\r\nConnection: keep-alive\r\n\r\n`, 'latin1');
  /** One tile answer remembered with the end lines of 10:00:00, and its whole response then. */
  const rememberedTile = () => {
    const replays = createReplays();
    const early = endsAt('Sat, 05 Dec 2026 10:00:00 GMT');
    replays.remember('GET /t', request, { head, body: Buffer.from('tile') }, basis, early);
    const replay = replays.get('GET /t');
    if (!replay) throw new Error('not remembered');
    return { replays, replay, early, before: replays.current(replay, early) };
  };

  it('holds each answer as one whole response and writes new end lines over it while no connection holds it', () => {
    const { replays, replay, early, before } = rememberedTile();
    expect(before.toString('latin1')).toBe(`${head.toString('latin1')}${early.toString('latin1')}tile`);
    const late = endsAt('Sat, 05 Dec 2026 10:00:01 GMT');
    const after = replays.current(replay, late);
    expect(after).toBe(before);
    expect(after.toString('latin1')).toBe(`${head.toString('latin1')}${late.toString('latin1')}tile`);
  });

  it('makes a new whole response for new end lines while a connection may still be sending the old one', () => {
    const { replays, replay, early, before } = rememberedTile();
    replay.held = true;
    const late = endsAt('Sat, 05 Dec 2026 10:00:01 GMT');
    const after = replays.current(replay, late);
    expect(after).not.toBe(before);
    expect(after.toString('latin1')).toBe(`${head.toString('latin1')}${late.toString('latin1')}tile`);
    // The connection still sending the earlier response sends it unchanged.
    expect(before.toString('latin1')).toBe(`${head.toString('latin1')}${early.toString('latin1')}tile`);
    expect(replay.held).toBe(false);
    // End lines of another length (another keep-alive time) make a new one too.
    const longer = Buffer.from(
      `${late.toString('latin1').slice(0, -2)}Keep-Alive: timeout=5\r\n\r\n`,
      'latin1',
    );
    const third = replays.current(replay, longer);
    expect(third).not.toBe(after);
    expect(third.toString('latin1')).toBe(`${head.toString('latin1')}${longer.toString('latin1')}tile`);
  });

  it('holds a head alone for a 304 or HEAD, and forgets everything past 48 MiB of responses', () => {
    const replays = createReplays();
    const ends = endsAt('Sat, 05 Dec 2026 10:00:00 GMT');
    replays.remember('HEAD /t', request, { head, body: undefined }, basis, ends);
    const headOnly = replays.get('HEAD /t');
    expect(headOnly && replays.current(headOnly, ends).length).toBe(head.length + ends.length);
    const big = Buffer.alloc(16 * 1024 ** 2);
    for (const n of [1, 2]) replays.remember(`GET /big/${n}`, request, { head, body: big }, basis, ends);
    expect(replays.get('HEAD /t')).toBeDefined();
    // The third 16 MiB tile would pass the bound: all are forgotten, and it is remembered alone.
    replays.remember('GET /big/3', request, { head, body: big }, basis, ends);
    expect([replays.get('HEAD /t'), replays.get('GET /big/1'), replays.get('GET /big/2')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(replays.get('GET /big/3')).toBeDefined();
  });
});

describe('readHead', () => {
  it('reads a plain GET or HEAD with the headers the tile path uses', () => {
    const h = readHead(
      'GET /a/b?token=x HTTP/1.1\r\nHost: h\r\nIf-None-Match: "e"\r\nX-Forwarded-For: 1.2.3.4',
    );
    expect(h?.head).toBe(false);
    expect(h?.target).toBe('/a/b?token=x');
    expect(h?.headers.get('if-none-match')).toBe('"e"');
    expect(h?.headers.get('x-forwarded-for')).toBe('1.2.3.4');
    expect(readHead('HEAD /a HTTP/1.1\r\nHost: h')?.head).toBe(true);
    expect(readHead('GET /a HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, close')?.close).toBe(true);
  });

  it('leaves to Node whatever it would not answer as Node does', () => {
    for (const text of [
      'PUT /a HTTP/1.1\r\nHost: h',
      'POST /a HTTP/1.1\r\nHost: h',
      'POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 1',
      'POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: +1',
      'GET /a HTTP/1.0\r\nHost: h',
      'GET /a HTTP/1.1',
      'GET a HTTP/1.1\r\nHost: h',
      'GET /a b HTTP/1.1\r\nHost: h',
      'GET /a HTTP/1.1\r\nHost: h\r\nHost: i',
      'GET /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked',
      'GET /a HTTP/1.1\r\nHost: h\r\nContent-Length: 0',
      'GET /a HTTP/1.1\r\nHost: h\r\nExpect: 100-continue',
      'GET /a HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket',
      'GET /a HTTP/1.1\r\nHost: h\r\n folded',
      'GET /a HTTP/1.1\r\nHost: h\r\nBad Name: x',
      'GET /a HTTP/1.1\r\nHost: h\r\nReferer: a\rb',
      'GET /a HTTP/1.1\r\nHost: h\r\nOrigin: a\r\nOrigin: b',
      'GET /\u00e9 HTTP/1.1\r\nHost: h',
    ]) {
      expect({ text, head: readHead(text) }).toEqual({ text, head: undefined });
    }
  });
});
