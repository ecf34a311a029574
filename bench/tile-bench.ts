/**
 * Tile seeding and serving, ours against MapServer + mapcache_seed and nginx (see bench/README.md):
 *   npx tsx bench/tile-bench.ts [--points 20000] [--levels 0-14] [--pg postgres://postgres@127.0.0.1:5432/test]
 * Same points, same style (an 8 px blue dot with a white outline), same levels and extent, 4×4 metatiles
 * on both sides, 2 workers each. Serving: wrk on loopback over the same non-empty tiles.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { countTiles, lonLatToMercator } from '../lib/tiles/web-mercator.js';
import { startBenchStack } from './ingest-stack.js';
import { publishAndCache, signInAs } from './tile-bench-client.js';
import { tileBenchConfigs } from './tile-bench-configs.js';

const { values } = parseArgs({
  options: {
    points: { type: 'string', default: '20000' },
    levels: { type: 'string', default: '0-14' },
    pg: {
      type: 'string',
      default: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const execFileAsync = promisify(execFile);
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

  // Serving: the tiles both caches hold, by the same z/y/x.
  const both: string[] = [];
  for (const p of mapcacheFiles.slice(0, 4000)) {
    const res = await fetch(`${stack.baseUrl}/rest/services/Hosted/${ours.name}/MapServer/tile/${p}`);
    await res.arrayBuffer();
    if (res.status === 200) both.push(p);
  }
  writeFileSync(join(dir, 'nginx-paths.txt'), both.map((p) => `/tiles/${p}.png`).join('\n'));
  writeFileSync(
    join(dir, 'ours-paths.txt'),
    both.map((p) => `/rest/services/Hosted/${ours.name}/MapServer/tile/${p}`).join('\n'),
  );
  const nginx = await wrk(join(dir, 'nginx-paths.txt'), 'http://127.0.0.1:8089');
  const oursServe = await wrk(join(dir, 'ours-paths.txt'), stack.baseUrl);
  console.log(`\nServing ${both.length} tiles, wrk -t2 -c50 -d10s on loopback`);
  console.log(`  nginx static: ${nginx.rps.toFixed(0)} req/s, p99 ${nginx.p99}`);
  console.log(`  ours (MinIO bundles, LRU): ${oursServe.rps.toFixed(0)} req/s, p99 ${oursServe.p99}`);
  console.log(`  ratio ours/nginx (req/s): ${(oursServe.rps / nginx.rps).toFixed(2)}`);
} finally {
  await stack.stop();
  spawnSync('nginx', ['-c', `${dir}/nginx.conf`, '-p', `${dir}/`, '-s', 'stop']);
  // spawn-fcgi -F 2 writes one pid per line: stop exactly the processes this run started.
  const pids = spawnSync('cat', [`${dir}/mapserv.pid`])
    .stdout.toString()
    .split(/\s+/)
    .filter(Boolean);
  for (const pid of pids) spawnSync('kill', [pid]);
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

/** wrk runs asynchronously: the server under test lives in this process and must keep answering. */
async function wrk(pathsFile: string, url: string): Promise<{ rps: number; p99: string }> {
  const { stdout: out } = await execFileAsync(
    'timeout',
    ['30', 'wrk', '-t2', '-c50', '-d10s', '-s', join(dir, 'rand.lua'), '--latency', url],
    { env: { ...process.env, PATHS: pathsFile } },
  );
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p99: /99%\s+(\S+)/.exec(out)?.[1] ?? '?',
  };
}
