/**
 * GetMapTile over SOAP against the REST tile endpoint, on the same tiles of a running product's
 * cached map service, with the same load generator on both sides: wrk over the same connections
 * (`-t2 -c50 -d10s`), each side's requests formatted once (bench/tile-bench-configs.ts `rest.lua` and
 * `soap.lua`), so the ratio measures the server, not the client. wrk must be installed (apt-get install wrk).
 *
 *   npx tsx bench/soap-tiles.ts --url http://127.0.0.1:8080 --service MyTiles
 *
 * The tile bench (bench/tile-bench.ts) runs the same comparison on the API it starts; see bench/README.md.
 * Earlier, with this process's fetch as the client (8 at a time), REST was bounded by the client
 * (7,903-9,104 req/s) and SOAP gave 2,590-3,031 req/s (0.33x), before SOAP tiles had a lean path.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tileRange, tilesInRange } from '../lib/tiles/web-mercator.js';
import { GEO_NAMESPACE } from '../soap/schema/model.js';
import { tileBenchConfigs } from './tile-bench-configs.js';
import { formatRun, wrk } from './tile-bench-serve.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    service: { type: 'string' },
  },
});
if (!values.url || !values.service) throw new Error('--url and --service are required');
const base = values.url.replace(/\/+$/, '');
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

const tiles = await benchTiles();
let same = 0;
for (const t of tiles.slice(0, 20)) {
  const [a, b] = await Promise.all([soapTile(t), restTile(t)]);
  if ((a === undefined && b === undefined) || (a && b && a.equals(b))) same++;
}
console.log(
  `${tiles.length} tiles; ${same} of ${Math.min(20, tiles.length)} sampled answer identically over SOAP and REST`,
);
const dir = mkdtempSync(join(tmpdir(), 'soap-tiles-'));
for (const [name, text] of Object.entries(tileBenchConfigs(dir))) writeFileSync(join(dir, name), text);
const restPath = new URL(rest).pathname;
const paths = join(dir, 'paths.txt');
writeFileSync(paths, tiles.map((t) => `${restPath}/tile/${t.level}/${t.row}/${t.col}`).join('\n'));
const origin = new URL(base).origin;
const restRun = await wrk(dir, 'rest.lua', paths, origin);
const soapRun = await wrk(dir, 'soap.lua', paths, origin, { SOAP_PATH: new URL(soapUrl).pathname });
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(', ');
console.log(formatRun('REST tile', restRun, restRun.rps));
console.log(formatRun('SOAP GetMapTile', soapRun, restRun.rps));
console.log(`SOAP / REST: ${(soapRun.rps / restRun.rps).toFixed(2)}x (load average ${load})`);
