/**
 * Vector tile builds, ours against GDAL's MVT driver (Debian has no tippecanoe; see bench/README.md):
 *   npx tsx bench/vector-tiles.ts [--points 20000] [--levels 0-14] [--pg postgres://…]
 * The same points (three attributes each) go to both: ours is published as a hosted feature service and
 * then as a Vector Tile Service (the whole product path: Temporal workflow, one activity per bundle,
 * PostgreSQL queries, gzip tiles in compact bundles in MinIO), timed from the publish request to the
 * completed job; GDAL runs `ogr2ogr -f MVT` from the GeoJSON file into a directory of gzip tiles with
 * the same levels, extent (4096) and buffer (64). Then every tile GDAL wrote is fetched from ours, and
 * the counts and gzip sizes are compared.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { startBenchStack } from './ingest-stack.js';
import { signInAs } from './tile-bench-client.js';

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
const dir = '/tmp/vector-tile-bench';
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const [minLevel, maxLevel] = values.levels.split('-').map(Number);
const box = { west: -87.9, south: 41.64, east: -87.45, north: 42.02 };

let seed = 7;
const rand = () => {
  seed = (seed * 48271) % 2147483647;
  return seed / 2147483647;
};
const features = Array.from({ length: Number(values.points) }, (_, i) => ({
  type: 'Feature',
  properties: { id: i, name: `point ${i}`, value: Math.round(rand() * 1000) / 10 },
  geometry: {
    type: 'Point',
    coordinates: [box.west + rand() * (box.east - box.west), box.south + rand() * (box.north - box.south)],
  },
}));
const file = join(dir, 'pts.geojson');
writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// GDAL first, on a quiet stack-less machine state.
const gdalDir = join(dir, 'gdal');
const loadBeforeGdal = load();
let started = performance.now();
execFileSync('ogr2ogr', [
  '-f',
  'MVT',
  gdalDir,
  file,
  '-dsco',
  `MINZOOM=${minLevel}`,
  '-dsco',
  `MAXZOOM=${maxLevel}`,
  '-dsco',
  'EXTENT=4096',
  '-dsco',
  'BUFFER=64',
  '-dsco',
  'COMPRESS=YES',
]);
const gdalSeconds = (performance.now() - started) / 1000;
const gdalTiles: { path: string; bytes: number }[] = [];
for (const z of readdirSync(gdalDir)) {
  if (!/^\d+$/.test(z)) continue;
  for (const x of readdirSync(join(gdalDir, z)))
    for (const y of readdirSync(join(gdalDir, z, x)))
      gdalTiles.push({
        path: `${z}/${y.replace('.pbf', '')}/${x}`,
        bytes: statSync(join(gdalDir, z, x, y)).size,
      });
}

async function post(baseUrl: string, path: string, fields: Record<string, string>, upload?: string) {
  const form = new FormData();
  form.set('f', 'json');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (upload) form.set('file', new Blob([readFileSync(upload)]), 'pts.geojson');
  return (await (await fetch(`${baseUrl}${path}`, { method: 'POST', body: form })).json()) as Record<
    string,
    any
  >;
}

const stack = await startBenchStack(join(dir, 'stack'), values.pg);
try {
  const token = await signInAs(stack);
  const owner = stack.admin.username;
  const waitFor = async (itemId: string, jobId: string) => {
    for (;;) {
      const url = `${stack.baseUrl}/sharing/rest/content/users/${owner}/items/${itemId}/status?f=json&token=${token}&jobId=${jobId}`;
      const status = (await (await fetch(url)).json()) as Record<string, any>;
      if (status.status === 'completed') return status;
      if (status.status === 'failed') throw new Error(`job failed: ${JSON.stringify(status)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stamp = Date.now().toString(36);
  const published = await post(
    stack.baseUrl,
    `/sharing/rest/content/users/${owner}/publish`,
    { token, filetype: 'geojson', publishParameters: JSON.stringify({ name: `vt_bench_pts_${stamp}` }) },
    file,
  );
  await waitFor(published.services[0].serviceItemId, published.services[0].jobId);
  const name = `vt_bench_${stamp}`;
  const loadBeforeOurs = load();
  // The product runs in this process: its resident memory during the build, sampled every 50 ms.
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 50);
  started = performance.now();
  const vector = await post(stack.baseUrl, `/sharing/rest/content/users/${owner}/publish`, {
    token,
    itemid: published.services[0].serviceItemId,
    filetype: 'featureService',
    outputType: 'VectorTiles',
    publishParameters: JSON.stringify({ name, levels: values.levels }),
  });
  const status = await waitFor(vector.services[0].serviceItemId, vector.services[0].jobId);
  const oursSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const oursTiles = Number(status.tilesDone);

  // The same tiles from ours: gzip bytes as sent (Content-Length of the gzip-encoded body), and the
  // features each side put in them (GDAL drops features from tiles over its MAX_SIZE of 500 kB).
  let oursBytes = 0;
  let missing = 0;
  let oursFeatures = 0;
  let gdalFeatures = 0;
  const features = (bytes: Uint8Array) =>
    Object.values(new VectorTile(new PbfReader(bytes)).layers).reduce((n, l) => n + l.length, 0);
  const base = `${stack.baseUrl}/rest/services/Hosted/${name}/VectorTileServer/tile`;
  for (const t of gdalTiles) {
    const res = await fetch(`${base}/${t.path}.pbf?token=${token}`);
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) missing++;
    else {
      oursBytes += Number(res.headers.get('content-length') ?? body.byteLength);
      oursFeatures += features(body);
    }
    const [z, y, x] = t.path.split('/');
    gdalFeatures += features(gunzipSync(readFileSync(join(gdalDir, z, x, `${y}.pbf`))));
  }
  const gdalBytes = gdalTiles.reduce((n, t) => n + t.bytes, 0);
  const matched = gdalTiles.length - missing;
  const rows = [
    `points ${values.points}, levels ${values.levels}, extent 4096, buffer 64`,
    `GDAL ogr2ogr -f MVT: ${gdalTiles.length} tiles in ${gdalSeconds.toFixed(2)} s = ${(gdalTiles.length / gdalSeconds).toFixed(1)} tiles/s; ${gdalBytes} bytes, mean ${(gdalBytes / gdalTiles.length).toFixed(0)} B/tile (load before: ${loadBeforeGdal})`,
    `ours (publish → job completed): ${oursTiles} tiles in ${oursSeconds.toFixed(2)} s = ${(oursTiles / oursSeconds).toFixed(1)} tiles/s (load before: ${loadBeforeOurs})`,
    `ours, the process's resident memory: ${(rssBefore / 2 ** 20).toFixed(0)} MB before the build, peak ${(rssPeak / 2 ** 20).toFixed(0)} MB during it`,
    `ours on GDAL's ${gdalTiles.length} tiles: ${matched} present, ${missing} absent; ${oursBytes} bytes, mean ${(oursBytes / Math.max(1, matched)).toFixed(0)} B/tile`,
    `features over those tiles: ours ${oursFeatures}, GDAL ${gdalFeatures}`,
    `ratios ours/GDAL: speed ${(oursTiles / oursSeconds / (gdalTiles.length / gdalSeconds)).toFixed(2)}×, bytes per tile ${(oursBytes / Math.max(1, matched) / (gdalBytes / gdalTiles.length)).toFixed(2)}×`,
    `load average after: ${load()}`,
  ];
  console.log(rows.join('\n'));
} finally {
  await stack.stop();
}
