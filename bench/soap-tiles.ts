/**
 * GetMapTile over SOAP against the REST tile endpoint, on the same tiles of a running product's
 * cached map service. Both sides read the same bundles through the same range reader; the
 * difference is the SOAP envelope (XML in, base64 out) against raw bytes.
 *
 *   npx tsx bench/soap-tiles.ts --url http://127.0.0.1:3000 --service MyTiles [--seconds 10] [--concurrency 8]
 *
 * The client is this process's fetch (`--concurrency` requests at a time), which bounds the REST side: read
 * REST's rate as the client's ceiling, not the server's (bench/tile-bench.ts measures REST tiles with wrk).
 *
 * Quiet 2-core machine, `npm start` (embedded PGlite), a public z0-14 cache of 20,000 points, the 550
 * tiles of level 14, concurrency 8, 10 s each, all 20 sampled tiles byte-identical:
 *   every SOAP tile looking its cache row up twice in the database: REST 7,251-8,803 req/s, SOAP 521-709 req/s;
 *   cache rows remembered 2 s, as the REST routes do:              REST 7,903-9,104 req/s, SOAP 2,590-3,031 req/s.
 * Earlier, on a loaded machine (load ~7) before the lean REST tile path: REST 170 req/s, SOAP 87 req/s.
 * What remains is the full app stack per request and the envelope: parsing the request XML and writing the
 * tile as base64 in XML.
 */
import { parseArgs } from 'node:util';
import { tileRange, tilesInRange } from '../lib/tiles/web-mercator.js';
import { GEO_NAMESPACE } from '../soap/schema/model.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    service: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
  },
});
if (!values.url || !values.service) throw new Error('--url and --service are required');
const base = values.url.replace(/\/+$/, '');
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const rest = `${base}/rest/services/Hosted/${values.service}/MapServer`;
const soapUrl = `${base}/services/Hosted/${values.service}/MapServer`;

interface Tile {
  level: number;
  row: number;
  col: number;
}

/** Every tile of the deepest cached level inside the service's full extent. */
async function benchTiles(): Promise<Tile[]> {
  const info = (await (await fetch(`${rest}?f=json`)).json()) as {
    fullExtent: { xmin: number; ymin: number; xmax: number; ymax: number };
    tileInfo: { lods: { level: number }[] };
  };
  const level = Math.max(...info.tileInfo.lods.map((l) => l.level));
  const e = info.fullExtent;
  return [...tilesInRange(tileRange([e.xmin, e.ymin, e.xmax, e.ymax], level))];
}

const envelope = (t: Tile) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><g:GetMapTile xmlns:g="${GEO_NAMESPACE}"><MapName>Layers</MapName><Level>${t.level}</Level><Row>${t.row}</Row><Column>${t.col}</Column></g:GetMapTile></soap:Body></soap:Envelope>`;

async function soapTile(t: Tile): Promise<Buffer | undefined> {
  const res = await fetch(soapUrl, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
    body: envelope(t),
  });
  const text = await res.text();
  if (res.status !== 200) return undefined;
  const b64 = /<Result>([^<]*)<\/Result>/.exec(text)?.[1] ?? '';
  return Buffer.from(b64, 'base64');
}

async function restTile(t: Tile): Promise<Buffer | undefined> {
  const res = await fetch(`${rest}/tile/${t.level}/${t.row}/${t.col}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  return res.status === 200 ? bytes : undefined;
}

async function run(name: string, fetchTile: (t: Tile) => Promise<unknown>, tiles: Tile[]) {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (performance.now() < until) {
      await fetchTile(tiles[next++ % tiles.length]);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  console.log(
    `${name.padEnd(16)} ${done} requests in ${elapsed.toFixed(1)} s: ${(done / elapsed).toFixed(0)} req/s`,
  );
}

const tiles = await benchTiles();
let same = 0;
for (const t of tiles.slice(0, 20)) {
  const [a, b] = await Promise.all([soapTile(t), restTile(t)]);
  if ((a === undefined && b === undefined) || (a && b && a.equals(b))) same++;
}
console.log(
  `${tiles.length} tiles; ${same} of ${Math.min(20, tiles.length)} sampled answer identically over SOAP and REST`,
);
await run('REST tile', restTile, tiles);
await run('SOAP GetMapTile', soapTile, tiles);
