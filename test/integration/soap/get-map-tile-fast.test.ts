/**
 * SOAP GetMapTile's lean path (api/tile-fast-path.ts) against the SOAP route behind it: a plain envelope
 * is answered by the lean path, the same envelope with a comment in it by the full parser and handler.
 * Both must give the same status, headers and bytes, for tiles that exist, tiles that do not, addresses
 * the handler refuses, private services with and without a token, and a contradicting SOAPAction.
 */
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { lonLatToMercator, tileAt } from '../../../lib/tiles/web-mercator.js';
import { SOAP_ENVELOPE_NS } from '../../../soap/fault.js';
import { readGetMapTile } from '../../../soap/get-map-tile-fast.js';
import { GEO_NAMESPACE } from '../../../soap/schema/model.js';
import { uniqueName } from '../publish/publish-client.js';
import { adminToken, signIn, stack } from '../support/portal-client.js';
import { publishStations, publishStationTiles } from './soap-client.js';

const features = uniqueName('soap_fast_src');
const tiled = uniqueName('soap_fast_tiles');

const envelope = (mapName: string, level: number, row: number, col: number, format = '') =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NS}"><soap:Body>` +
  `<tns:GetMapTile xmlns:tns="${GEO_NAMESPACE}"><MapName>${mapName}</MapName><Level>${level}</Level>` +
  `<Row>${row}</Row><Column>${col}</Column>${format ? `<Format>${format}</Format>` : ''}</tns:GetMapTile>` +
  '</soap:Body></soap:Envelope>';

/** The same request the lean path leaves to the full parser (it reads no comments). */
const viaFullPath = (raw: string) => raw.replace('<Level>', '<!-- full path --><Level>');

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: Buffer;
}

async function post(raw: string, query = '', soapAction = '""'): Promise<Answer> {
  const res = await fetch(`${stack().baseUrl}/services/Hosted/${tiled}/MapServer${query}`, {
    method: 'POST',
    headers: {
      'content-type': 'text/xml; charset=utf-8',
      soapaction: soapAction,
      origin: 'https://maps.example',
    },
    body: raw,
  });
  const headers: Record<string, string | null> = {};
  for (const h of [
    'content-type',
    'content-length',
    'access-control-allow-origin',
    'access-control-allow-credentials',
    'vary',
  ]) {
    headers[h] = res.headers.get(h);
  }
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** Writes `requests` at once on a new connection and reads `count` responses (each with a Content-Length). */
async function pipelined(port: number, host: string, requests: string, count: number) {
  const socket = connect(port, host);
  await new Promise((r) => socket.once('connect', r));
  socket.write(requests);
  let buffered = Buffer.alloc(0);
  const answers: { status: number; headers: Record<string, string>; body: Buffer }[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (d: Buffer) => {
      buffered = Buffer.concat([buffered, d]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) break;
        const lines = buffered.toString('latin1', 0, end).split('\r\n');
        const headers: Record<string, string> = {};
        for (const l of lines.slice(1))
          headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
        const length = Number(headers['content-length']);
        if (buffered.length < end + 4 + length) break;
        answers.push({
          status: Number(lines[0].split(' ')[1]),
          headers,
          body: buffered.subarray(end + 4, end + 4 + length),
        });
        buffered = buffered.subarray(end + 4 + length);
      }
      if (answers.length >= count) resolve();
    });
  });
  socket.destroy();
  return answers;
}

let token: string;
beforeAll(async () => {
  token = await signIn();
  await publishStationTiles(token, await publishStations(token, features), tiled);
}, 400_000);

describe('GetMapTile on the lean path', () => {
  const [cx, cy] = lonLatToMercator(-87.630886, 41.885737);
  const tile = tileAt(cx, cy, 11);

  const cases: [string, string][] = [
    ['a tile that exists', envelope('Layers', 11, tile.row, tile.col)],
    ['with its format', envelope('Layers', 11, tile.row, tile.col, 'png')],
    ['the map name in another case', envelope('layers', 11, tile.row, tile.col)],
    ['a tile the cache does not hold', envelope('Layers', 11, 0, 0)],
    ['a level outside the cache', envelope('Layers', 15, 0, 0)],
    ['a row outside the level', envelope('Layers', 10, 1024, 0)],
    ['another format', envelope('Layers', 11, tile.row, tile.col, 'jpg')],
    ['another map name', envelope('Other', 11, tile.row, tile.col)],
  ];

  it('the plain envelopes are ones the lean path reads', () => {
    for (const [, raw] of cases) expect(readGetMapTile(raw)).toBeDefined();
    expect(readGetMapTile(viaFullPath(cases[0][1]))).toBeUndefined();
  });

  it('answers as the full path does, byte for byte, for a signed-in caller', async () => {
    const query = `?token=${await adminToken()}`;
    for (const [what, raw] of cases) {
      const fast = await post(raw, query);
      const full = await post(viaFullPath(raw), query);
      expect({ what, ...fast }).toEqual({ what, ...full });
    }
    const ok = await post(cases[0][1], query);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(ok.headers['access-control-allow-origin']).toBe('https://maps.example');
    // The tile inside is the REST tile.
    const rest = await fetch(
      `${stack().baseUrl}/rest/services/Hosted/${tiled}/MapServer/tile/11/${tile.row}/${tile.col}${query}`,
    );
    const b64 = /<Result>([^<]*)<\/Result>/.exec(ok.body.toString('latin1'))?.[1] ?? '';
    expect(Buffer.from(b64, 'base64').equals(Buffer.from(await rest.arrayBuffer()))).toBe(true);
    expect((await post(cases[3][1], query)).status).toBe(500); // a fault: no such tile
  });

  it('keeps the private service private: no token, a bad token and a contradicting SOAPAction', async () => {
    const raw = cases[0][1];
    const signedIn = `?token=${await adminToken()}`;
    // [query, SOAPAction, whether the tile is the answer]: an action naming no operation is not a
    // contradiction (the full path answers it), one naming another operation is.
    const asks: [string, string, boolean][] = [
      ['', '""', false],
      ['?token=not-a-token', '""', false],
      [signedIn, '"http://www.geoportal.dev/GetMapTiles"', true],
      [signedIn, '"GetServerInfo"', false],
    ];
    for (const [query, action, tile] of asks) {
      const fast = await post(raw, query, action);
      const full = await post(viaFullPath(raw), query, action);
      expect({ query, action, ...fast }).toEqual({ query, action, ...full });
      expect({ query, action, tile: fast.body.toString('utf8').includes('<Result>') }).toEqual({
        query,
        action,
        tile,
      });
    }
    expect((await post(raw)).body.toString('utf8')).toContain('<faultstring>Token Required</faultstring>');
  });

  it('gives the same answers on one kept-alive connection written whole, as the socket front reads it', async () => {
    const query = `?token=${await adminToken()}`;
    const restPath = `/rest/services/Hosted/${tiled}/MapServer/tile/11/${tile.row}/${tile.col}${query}`;
    const soapPath = `/services/Hosted/${tiled}/MapServer${query}`;
    const raw = cases[0][1];
    const u = new URL(stack().baseUrl);
    const head = (extra: string) => `Host: ${u.host}\r\nOrigin: https://maps.example\r\n${extra}\r\n`;
    const rest = `GET ${restPath} HTTP/1.1\r\n${head('')}`;
    const soap =
      `POST ${soapPath} HTTP/1.1\r\n` +
      head(
        `Content-Type: text/xml; charset=utf-8\r\nSOAPAction: ""\r\nContent-Length: ${Buffer.byteLength(raw)}\r\n`,
      ) +
      raw;
    // Three requests in one write (pipelined), twice (the second time from memory).
    const answers = await pipelined(Number(u.port), u.hostname, rest + soap + rest + soap + rest + soap, 6);
    const viaNode = {
      rest: Buffer.from(await (await fetch(`${stack().baseUrl}${restPath}`)).arrayBuffer()),
      soap: (await post(raw, query)).body,
    };
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const [i, a] of answers.entries()) {
      expect({ i, same: a.body.equals(i % 2 === 0 ? viaNode.rest : viaNode.soap) }).toEqual({
        i,
        same: true,
      });
      expect(a.headers['access-control-allow-origin']).toBe('https://maps.example');
    }
    expect(answers[1].headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(answers[0].headers['content-type']).toBe('image/png');
  });
});
