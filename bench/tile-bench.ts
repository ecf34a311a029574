/**
 * Tile seeding and serving, ours against MapServer + mapcache_seed and nginx (see bench/README.md):
 *   npx tsx bench/tile-bench.ts [--points 20000] [--levels 0-14] [--processes 1,2] [--serve false] [--pg …]
 * Same points, same style (an 8 px blue dot with a white outline), same levels and extent, 4×4 metatiles
 * on both sides, 2 workers each. Serving: wrk on loopback over the same non-empty tiles, ours from the
 * production API entry (api/main.ts) with 1 and with 2 server processes, nginx from our tiles written out
 * as files (the same bytes; mapcache's own files are measured too), before and after ours. Two restarts
 * show a start's first second apart from the seconds after it (where the cold run's tail is): one with
 * the tile memory carried over from the processes before, one cold.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { countTiles, lonLatToMercator } from '../lib/tiles/web-mercator.js';
import { GEO_NAMESPACE } from '../soap/schema/model.js';
import { startBenchStack } from './ingest-stack.js';
import { publishAndCache, shareWithEveryone, signInAs } from './tile-bench-client.js';
import { tileBenchConfigs } from './tile-bench-configs.js';
import {
  etagsOf,
  formatRun,
  startApi,
  type WrkResult,
  writeConditionalScript,
  wrk,
} from './tile-bench-serve.js';

const { values } = parseArgs({
  options: {
    points: { type: 'string', default: '20000' },
    levels: { type: 'string', default: '0-14' },
    /** API server processes to measure, one fresh API per entry (API_PROCESSES). */
    processes: { type: 'string', default: '1,2' },
    /** `--serve false`: the seeding comparison alone. */
    serve: { type: 'string', default: 'true' },
    /**
     * `--alternate N`: after the other runs, N rounds of nginx and ours warm (the last process count)
     * for 5 s each, in turns, and the median of the rounds' ratios: a machine whose rate drifts by a
     * tenth between two runs of the same server says little with one run of each. Then two paced rounds
     * of each (paced.lua): both at the same offered load, below capacity, for their tails.
     */
    alternate: { type: 'string', default: '0' },
    pg: {
      type: 'string',
      default: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const dir = '/tmp/tile-bench';
rmSync(dir, { recursive: true, force: true });
mkdirSync(join(dir, 'ntmp'), { recursive: true });
const [minLevel, maxLevel] = values.levels.split('-').map(Number);
const box = { west: -87.9, south: 41.64, east: -87.45, north: 42.02 };

// Deterministic points (a linear congruential generator), written once for both sides.
let seed = 1;
const rand = () => {
  seed = (seed * 48271) % 2147483647;
  return seed / 2147483647;
};
const features = Array.from({ length: Number(values.points) }, (_, i) => ({
  type: 'Feature',
  properties: { id: i },
  geometry: {
    type: 'Point',
    coordinates: [box.west + rand() * (box.east - box.west), box.south + rand() * (box.north - box.south)],
  },
}));
writeFileSync(join(dir, 'pts.geojson'), JSON.stringify({ type: 'FeatureCollection', features }));
const [x0, y0] = lonLatToMercator(box.west, box.south);
const [x1, y1] = lonLatToMercator(box.east, box.north);
const extent = `${x0},${y0},${x1},${y1}`;

if (!['mapcache_seed', 'nginx', 'wrk', 'spawn-fcgi'].every((b) => spawnSync('which', [b]).status === 0)) {
  execFileSync(
    'apt-get',
    [
      'install',
      '-y',
      '--no-install-recommends',
      'mapserver-bin',
      'cgi-mapserver',
      'mapcache-tools',
      'spawn-fcgi',
      'nginx-light',
      'wrk',
    ],
    { stdio: 'inherit' },
  );
}
for (const [name, text] of Object.entries(tileBenchConfigs(dir))) writeFileSync(join(dir, name), text);
const env = { ...process.env, MAPSERVER_CONFIG_FILE: join(dir, 'mapserver.conf') };
execFileSync(
  'spawn-fcgi',
  [
    '-s',
    `${dir}/mapserv.sock`,
    '-M',
    '0666',
    '-F',
    '2',
    '-P',
    `${dir}/mapserv.pid`,
    '--',
    '/usr/lib/cgi-bin/mapserv',
  ],
  { env },
);
execFileSync('nginx', ['-c', `${dir}/nginx.conf`, '-p', `${dir}/`]);

const stack = await startBenchStack(join(dir, 'stack'), values.pg);
try {
  // Seeding: mapcache_seed over the extent (it renders every metatile of the box) …
  let started = performance.now();
  const seedOut = execFileSync(
    'mapcache_seed',
    [
      '-c',
      `${dir}/mapcache.xml`,
      '-t',
      'pts',
      '-g',
      'GoogleMapsCompatible',
      '-z',
      `${minLevel},${maxLevel}`,
      '-e',
      extent,
      '-n',
      '2',
      '-q',
    ],
    { env },
  ).toString();
  const mapcacheSeconds = (performance.now() - started) / 1000;
  const mapcacheFiles = listTiles(join(dir, 'cache'));
  // mapcache stores whole metatiles (overshoot past the extent): count the tiles inside it, as ours does.
  const mapcacheTiles = countTiles([x0, y0, x1, y1], minLevel, maxLevel);
  // … and ours: publish the same file, then a tile service from it, timed from request to completed job.
  const token = await signInAs(stack);
  started = performance.now();
  const ours = await publishAndCache(stack, token, join(dir, 'pts.geojson'), values.levels);
  const oursSeconds = ours.cacheSeconds;
  console.log(`\nSeeding z${minLevel}-${maxLevel}, ${values.points} points, extent ${extent}`);
  console.log(
    `  mapcache_seed + MapServer: ${mapcacheTiles} tiles in the extent (${mapcacheFiles.length} files written) in ${mapcacheSeconds.toFixed(1)} s = ${(mapcacheTiles / mapcacheSeconds).toFixed(0)} tiles/s  (${seedOut.trim().split('\n').pop()})`,
  );
  console.log(
    `  ours (publish request to completed job; empty tiles skipped): ${ours.tiles} tiles in ${oursSeconds.toFixed(1)} s = ${(ours.tiles / oursSeconds).toFixed(0)} tiles/s`,
  );
  console.log(
    `  ratio ours/mapcache (tiles/s): ${(ours.tiles / oursSeconds / (mapcacheTiles / mapcacheSeconds)).toFixed(2)}`,
  );

  console.log(`  ${ours.timeline}`);
  console.log(`  bundles (scheduled/started/completed ms): ${ours.bundles}`);
  console.log(`  ${ours.cpu}`);
  if (values.serve !== 'false') {
    // Serving: the tiles both caches hold, by the same z/y/x, from the public service (as a basemap is).
    await shareWithEveryone(stack, token, ours.serviceItemId);
    // Our tiles are also written out as files, so nginx serves the very bytes we serve.
    const both: string[] = [];
    for (const p of mapcacheFiles.slice(0, 4000)) {
      const res = await fetch(`${stack.baseUrl}/rest/services/Hosted/${ours.name}/MapServer/tile/${p}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (res.status !== 200 || res.headers.get('content-type') !== 'image/png') continue;
      both.push(p);
      mkdirSync(join(dir, 'ours-static', p, '..'), { recursive: true });
      writeFileSync(join(dir, 'ours-static', `${p}.png`), bytes);
    }
    if (both.length === 0) throw new Error('ours serves none of the tiles mapcache seeded');
    const oursPaths = both.map((p) => `/rest/services/Hosted/${ours.name}/MapServer/tile/${p}`);
    const pathsFile = (name: string, lines: string[]) => {
      writeFileSync(join(dir, name), lines.join('\n'));
      return join(dir, name);
    };
    const nginxFile = pathsFile(
      'nginx-paths.txt',
      both.map((p) => `/ours/${p}.png`),
    );
    const mapcacheTilesFile = pathsFile(
      'nginx-mapcache-paths.txt',
      both.map((p) => `/tiles/${p}.png`),
    );
    const oursFile = pathsFile('ours-paths.txt', oursPaths);
    const withTokenFile = pathsFile(
      'ours-token-paths.txt',
      oursPaths.map((p) => `${p}?token=${token}`),
    );
    const conditional = writeConditionalScript(dir);
    console.log(`\nServing ${both.length} tiles, wrk -t2 -c50 -d10s on loopback (load ${loadAverage()})`);
    // nginx is measured before and after ours; the ratios at the end are against the mean of the two runs,
    // so a machine that gets busier or quieter during the runs does not favour either side.
    const nginx = await wrk(dir, 'rand.lua', nginxFile, 'http://127.0.0.1:8089');
    console.log(formatRun('nginx static, our tiles (2 workers)', nginx, nginx.rps));
    const nginxMapcache = await wrk(dir, 'rand.lua', mapcacheTilesFile, 'http://127.0.0.1:8089');
    console.log(formatRun("nginx static, mapcache's tiles", nginxMapcache, nginx.rps));
    const runs: { label: string; result: WrkResult }[] = [];
    const measure = async (
      label: string,
      script: string,
      paths: string,
      url: string,
      env: Record<string, string> = {},
      seconds = 10,
    ) => {
      const result = await wrk(dir, script, paths, url, env, seconds);
      console.log(formatRun(label, result, nginx.rps));
      runs.push({ label, result });
      return result;
    };
    const soapPairs: { label: string; rest: WrkResult; soap: WrkResult }[] = [];
    for (const processes of values.processes.split(',').map(Number)) {
      // A fresh API each time: the first run starts with empty memory (tiles, rows, grants).
      const api = await startApi(stack, processes);
      try {
        const label = `ours, ${processes} process${processes > 1 ? 'es' : ''}`;
        await measure(`${label}, cold (empty LRU)`, 'rand.lua', oursFile, api.baseUrl);
        await measure(`${label}, warm`, 'rand.lua', oursFile, api.baseUrl);
        await measure(`${label}, warm, token in query`, 'rand.lua', withTokenFile, api.baseUrl);
        // SOAP GetMapTile against REST on the same tiles, connections and load generator (requests
        // formatted once by both scripts), after checking SOAP answers with REST's bytes.
        await checkSoapTiles(api.baseUrl, ours.name, both.slice(0, 50));
        const soapPath = `/services/Hosted/${ours.name}/MapServer`;
        const rest = await measure(`${label}, REST (pre-formatted)`, 'rest.lua', oursFile, api.baseUrl);
        const soap = await measure(`${label}, SOAP GetMapTile`, 'soap.lua', oursFile, api.baseUrl, {
          SOAP_PATH: soapPath,
        });
        soapPairs.push({ label, rest, soap });
        const etags = pathsFile('ours-etags.txt', await etagsOf(api.baseUrl, oursPaths));
        await measure(`${label}, 304 (If-None-Match)`, conditional, etags, api.baseUrl);
      } finally {
        await api.stop();
      }
    }
    // A restart, its first second apart from the seconds after (where a cold start's tail is): the API
    // processes read the tiles the last ones held before they listen (infra/tile-memory-record.ts), and
    // again with that turned off, a cold start like the first run's.
    const lastProcesses = Number(values.processes.split(',').pop());
    const restarts: [string, Record<string, string>][] = [
      ['restarted, memory carried over', {}],
      ['restarted cold (TILE_WARM_START_SECONDS=0)', { TILE_WARM_START_SECONDS: '0' }],
    ];
    for (const [restart, env] of restarts) {
      const fresh = await startApi(stack, lastProcesses, 256, env);
      try {
        const label = `ours, ${lastProcesses} process${lastProcesses > 1 ? 'es' : ''}, ${restart}`;
        await measure(`${label}, first second`, 'rand.lua', oursFile, fresh.baseUrl, {}, 1);
        await measure(`${label}, seconds 2-5`, 'rand.lua', oursFile, fresh.baseUrl, {}, 4);
      } finally {
        await fresh.stop();
      }
    }
    const rounds = Number(values.alternate);
    const alternated = rounds > 0 ? await alternateRounds(rounds, lastProcesses, nginxFile, oursFile) : [];
    const nginxAfter = await wrk(dir, 'rand.lua', nginxFile, 'http://127.0.0.1:8089');
    console.log(formatRun('nginx static, our tiles, again', nginxAfter, nginx.rps));
    const nginxMean = (nginx.rps + nginxAfter.rps) / 2;
    console.log(`\nAgainst the mean of nginx's two runs on our tiles (${nginxMean.toFixed(0)} req/s):`);
    for (const { label, result } of runs) console.log(formatRun(label, result, nginxMean));
    for (const { label, rest, soap } of soapPairs) {
      console.log(
        `  ${label}: SOAP GetMapTile / REST tiles = ${(soap.rps / rest.rps).toFixed(2)}x (${soap.rps.toFixed(0)} / ${rest.rps.toFixed(0)} req/s)`,
      );
    }
    if (alternated.length > 0) {
      const ratios = alternated.map((r) => r.ours.rps / r.nginx.rps).sort((a, b) => a - b);
      const mid = ratios.length >> 1;
      const median = ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
      console.log(
        `  ${alternated.length} alternated rounds, ours warm (${lastProcesses} processes) / nginx: median ${median.toFixed(2)}x, ` +
          `from ${ratios[0].toFixed(2)}x to ${ratios[ratios.length - 1].toFixed(2)}x; ` +
          `p99 ours ${alternated.map((r) => r.ours.p99).join(', ')} against nginx's ${alternated.map((r) => r.nginx.p99).join(', ')}`,
      );
    }
    console.log(`  load average after the runs: ${loadAverage()}`);
  }
} finally {
  // The reference servers first: stopping the stack may end the process before its promise settles.
  spawnSync('nginx', ['-c', `${dir}/nginx.conf`, '-p', `${dir}/`, '-s', 'stop']);
  // spawn-fcgi -F 2 writes one pid per line: stop exactly the processes this run started. mapserv takes
  // SIGTERM as "exit after the next request", which never comes, so the survivors are killed.
  const pids = readFileSync(`${dir}/mapserv.pid`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  const signal = (sig: NodeJS.Signals) =>
    pids.filter((pid) => {
      try {
        process.kill(pid, sig);
        return true;
      } catch {
        return false; // already gone
      }
    });
  if (signal('SIGTERM').length > 0) {
    await new Promise((r) => setTimeout(r, 1000));
    signal('SIGKILL');
  }
  await stack.stop();
}

/**
 * `rounds` rounds of nginx and a warm API of `processes` processes, 5 s each, the order swapped every
 * round so that a drift of the machine favours neither; the API is warmed by one run first. `nginxFile`
 * and `oursFile` list the same tiles' paths on each server.
 */
async function alternateRounds(rounds: number, processes: number, nginxFile: string, oursFile: string) {
  const alone = await wrk(dir, 'rand.lua', nginxFile, 'http://127.0.0.1:8089', {}, 5);
  console.log(`\n  nginx for 5 s with no API running: ${alone.rps.toFixed(0)} req/s (p99 ${alone.p99})`);
  // Without the event-loop delay probe, which wakes every process each millisecond (startApi).
  const api = await startApi(stack, processes, 256, {}, false);
  const out: { nginx: WrkResult; ours: WrkResult }[] = [];
  try {
    await wrk(dir, 'rand.lua', oursFile, api.baseUrl, {}, 5);
    console.log(`Alternated rounds, 5 s each (load ${loadAverage()}):`);
    for (let i = 0; i < rounds; i++) {
      // The API's CPU while nginx serves: an idle API that took some would lower nginx's rate.
      const nginxRun = async () => {
        const before = api.cpuSeconds();
        const result = await wrk(dir, 'rand.lua', nginxFile, 'http://127.0.0.1:8089', {}, 5);
        return { result, apiCpu: api.cpuSeconds() - before };
      };
      const oursRun = () => wrk(dir, 'rand.lua', oursFile, api.baseUrl, {}, 5);
      let round: { nginx: WrkResult; ours: WrkResult; apiCpu: number };
      if (i % 2 === 0) {
        const n = await nginxRun();
        round = { nginx: n.result, apiCpu: n.apiCpu, ours: await oursRun() };
      } else {
        const ours = await oursRun();
        const n = await nginxRun();
        round = { nginx: n.result, apiCpu: n.apiCpu, ours };
      }
      console.log(
        `  round ${i + 1}: nginx ${round.nginx.rps.toFixed(0)} req/s (p99 ${round.nginx.p99}; the idle API used ${round.apiCpu.toFixed(2)} CPU-s meanwhile), ours ${round.ours.rps.toFixed(0)} req/s (p99 ${round.ours.p99}): ${(round.ours.rps / round.nginx.rps).toFixed(2)}x`,
      );
      out.push(round);
    }
    await pacedRounds(nginxFile, oursFile, api.baseUrl);
  } finally {
    await api.stop();
  }
  return out;
}

/**
 * Two rounds of nginx and ours at the same offered load, below both servers' capacity (paced.lua), 5 s
 * each in swapped order: at full load a p99 is mostly the wait for a core shared with wrk, which favours
 * the server that answers fewer requests a second; paced, it is each server's own answering.
 */
async function pacedRounds(nginxFile: string, oursFile: string, apiUrl: string): Promise<void> {
  // Each connection's wait after an answer: 50 connections offer at most 25,000 req/s.
  const delayMs = 2;
  const env = { DELAY_MS: String(delayMs) };
  const nginx = () => wrk(dir, 'paced.lua', nginxFile, 'http://127.0.0.1:8089', env, 5);
  const ours = () => wrk(dir, 'paced.lua', oursFile, apiUrl, env, 5);
  console.log(`Paced rounds, each connection waiting ${delayMs} ms after each answer, 5 s each:`);
  for (let i = 0; i < 2; i++) {
    let n: WrkResult;
    let o: WrkResult;
    if (i === 0) {
      n = await nginx();
      o = await ours();
    } else {
      o = await ours();
      n = await nginx();
    }
    console.log(
      `  paced round ${i + 1}: nginx ${n.rps.toFixed(0)} req/s (p50 ${n.p50}, p99 ${n.p99}), ours ${o.rps.toFixed(0)} req/s (p50 ${o.p50}, p99 ${o.p99})`,
    );
  }
}

/** GetMapTile over SOAP answers each tile with the REST tile's bytes (base64 in Result), or the bench stops. */
async function checkSoapTiles(baseUrl: string, name: string, tiles: string[]): Promise<void> {
  for (const t of tiles) {
    const [z, y, x] = t.split('/');
    const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><tns:GetMapTile xmlns:tns="${GEO_NAMESPACE}"><MapName>Layers</MapName><Level>${z}</Level><Row>${y}</Row><Column>${x}</Column></tns:GetMapTile></soap:Body></soap:Envelope>`;
    const soap = await fetch(`${baseUrl}/services/Hosted/${name}/MapServer`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
      body,
    });
    const text = await soap.text();
    const rest = Buffer.from(
      await (await fetch(`${baseUrl}/rest/services/Hosted/${name}/MapServer/tile/${t}`)).arrayBuffer(),
    );
    const b64 = /<Result>([^<]*)<\/Result>/.exec(text)?.[1];
    if (soap.status !== 200 || !b64 || !Buffer.from(b64, 'base64').equals(rest)) {
      throw new Error(`SOAP GetMapTile ${t} does not answer the REST tile (${soap.status})`);
    }
  }
  console.log(`  SOAP GetMapTile answers ${tiles.length} sampled tiles with the REST tiles' bytes`);
}

/** `z/y/x` of every real (not symlinked blank) tile file of the template cache. */
function listTiles(root: string): string[] {
  const out: string[] = [];
  for (const z of readdirSync(root))
    for (const y of readdirSync(join(root, z)))
      for (const f of readdirSync(join(root, z, y))) {
        if (statSync(join(root, z, y, f)).isFile()) out.push(`${z}/${y}/${f.replace(/\.png$/, '')}`);
      }
  return out;
}

function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
}
