/**
 * Ingest benchmark: publish a generated x/y CSV (or, with --format gpkg, the same points as a
 * GeoPackage made by ogr2ogr) end to end (upload, workflow, COPY load, indexes) and load the same
 * file with ogr2ogr into the same PostgreSQL; print both times, rows per second and our peak memory
 * at two file sizes (memory should stay flat as the file grows).
 *
 *   npx tsx bench/ingest.ts [--rows 1000000] [--format csv|gpkg] [--via publish|item] [--pg postgres://postgres@127.0.0.1:5432/test]
 *
 * `--via item` takes the way ArcGIS clients more often take: addItem with the file, analyze of the item, then
 * publish of the item (itemid) with the publish parameters analyze proposed; the time is from addItem to the
 * completed job, analyze's own time printed beside it. The default sends the file in the publish request.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { publishWorkflowId } from '../workflows/messages.js';
import { startCpuSampler } from './cpu-sampler.js';
import { writePointsCsv } from './ingest-data.js';
import { type BenchStack, startBenchStack } from './ingest-stack.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    format: { type: 'string', default: 'csv' },
    via: { type: 'string', default: 'publish' },
    pg: {
      type: 'string',
      default: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const rows = Number(values.rows);
const gpkg = values.format === 'gpkg';
if (!gpkg && values.format !== 'csv') throw new Error(`--format ${values.format}: use csv or gpkg`);
const viaItem = values.via === 'item';
if (!viaItem && values.via !== 'publish') throw new Error(`--via ${values.via}: use publish or item`);

interface Run {
  label: string;
  rows: number;
  seconds: number;
  peakRssMb?: number;
  loaded: number;
}

async function json(url: string, init?: RequestInit): Promise<Record<string, any>> {
  const res = await fetch(url, init);
  return (await res.json()) as Record<string, any>;
}

/** A multipart POST sent by curl, a client in its own process as a user's would be. */
async function curlForm(url: string, fields: Record<string, string>, file: string, filename: string) {
  const args = ['-sS', '--fail-with-body', '-H', 'Expect:'];
  for (const [k, v] of Object.entries(fields)) args.push('--form-string', `${k}=${v}`);
  args.push('-F', `file=@${file};filename=${filename}`, url);
  const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`curl exited with ${code}: ${out}`);
  return JSON.parse(out) as Record<string, any>;
}

async function signIn(stack: BenchStack): Promise<string> {
  const body = new URLSearchParams({ f: 'json', ...stack.admin, client: 'requestip', expiration: '600' });
  return (await json(`${stack.baseUrl}/sharing/rest/generateToken`, { method: 'POST', body })).token;
}

async function publish(stack: BenchStack, token: string, file: string, name: string): Promise<Run> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const cpu = startCpuSampler(250);
  const started = performance.now();
  const owner = stack.admin.username;
  const params = gpkg
    ? { name, layerInfo: { capabilities: 'Query' } }
    : {
        name,
        locationType: 'coordinates',
        latitudeFieldName: 'lat',
        longitudeFieldName: 'lon',
        layerInfo: { capabilities: 'Query' },
      };
  const filetype = gpkg ? 'geoPackage' : 'csv';
  const filename = `${name}.${gpkg ? 'gpkg' : 'csv'}`;
  const res = viaItem
    ? await publishViaItem(stack, token, file, filename, filetype, params, started)
    : await curlForm(
        `${stack.baseUrl}/sharing/rest/content/users/${owner}/publish`,
        { f: 'json', token, filetype, publishParameters: JSON.stringify(params) },
        file,
        filename,
      );
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  console.log(`  ${name}: publish answered after ${((performance.now() - started) / 1000).toFixed(2)} s`);
  for (;;) {
    const status = await json(
      `${stack.baseUrl}/sharing/rest/content/users/${owner}/items/${service.serviceItemId}/status?f=json&token=${token}&jobId=${service.jobId}`,
    );
    if (status.status === 'completed') break;
    if (status.status === 'failed') throw new Error(`publish failed: ${status.statusMessage}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  console.log(`    ${cpu.stop()}`);
  await printActivityTimes(stack, service.jobId);
  const count = await json(
    `${stack.baseUrl}/rest/services/Hosted/${name}/FeatureServer/0/query?f=json&where=1%3D1&returnCountOnly=true&token=${token}`,
  );
  if (typeof count.count !== 'number') throw new Error(`count query failed: ${JSON.stringify(count)}`);
  return {
    label: `ours (${name})`,
    rows: countLines(file),
    seconds,
    peakRssMb: Math.round(peak / 2 ** 20),
    loaded: count.count,
  };
}

/** addItem with the file, analyze of the item, publish of the item with analyze's parameters (and `params`' name). */
async function publishViaItem(
  stack: BenchStack,
  token: string,
  file: string,
  filename: string,
  filetype: string,
  params: Record<string, unknown>,
  started: number,
): Promise<Record<string, any>> {
  const owner = stack.admin.username;
  const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(2);
  const added = await curlForm(
    `${stack.baseUrl}/sharing/rest/content/users/${owner}/addItem`,
    { f: 'json', token, type: gpkg ? 'GeoPackage' : 'CSV', title: filename },
    file,
    filename,
  );
  if (!added.id) throw new Error(`addItem failed: ${JSON.stringify(added)}`);
  const analyzing = performance.now();
  const analyzed = await json(`${stack.baseUrl}/sharing/rest/content/features/analyze`, {
    method: 'POST',
    body: new URLSearchParams({ f: 'json', token, itemid: added.id, filetype }),
  });
  if (!analyzed.publishParameters) throw new Error(`analyze failed: ${JSON.stringify(analyzed)}`);
  console.log(`  addItem answered after ${seconds(started)} s, analyze took ${seconds(analyzing)} s`);
  return json(`${stack.baseUrl}/sharing/rest/content/users/${owner}/publish`, {
    method: 'POST',
    body: new URLSearchParams({
      f: 'json',
      token,
      itemid: added.id,
      filetype,
      // Analyze's parameters as a client sends them back, with the bench's name and capabilities.
      publishParameters: JSON.stringify({
        ...analyzed.publishParameters,
        name: params.name,
        layerInfo: { ...analyzed.publishParameters.layerInfo, capabilities: 'Query' },
      }),
    }),
  });
}

/** Where the job's time went: each activity from scheduled to completed, from the workflow history. */
async function printActivityTimes(stack: BenchStack, jobId: string) {
  const history = await stack.temporal.workflow.getHandle(publishWorkflowId(jobId)).fetchHistory();
  const scheduled = new Map<string, { name: string; at: number }>();
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
  const parts: string[] = [];
  const events = history.events ?? [];
  let inActivities = 0;
  for (const e of events) {
    const s = e.activityTaskScheduledEventAttributes;
    if (s) scheduled.set(String(e.eventId), { name: s.activityType?.name ?? '?', at: ms(e.eventTime) });
    const c = e.activityTaskCompletedEventAttributes;
    const from = c && scheduled.get(String(c.scheduledEventId));
    if (from) {
      parts.push(`${from.name} ${((ms(e.eventTime) - from.at) / 1000).toFixed(2)} s`);
      inActivities += ms(e.eventTime) - from.at;
    }
  }
  // The workflow's own time outside its activities: its tasks, and the server handing them out.
  const whole = events.length > 1 ? ms(events[events.length - 1]?.eventTime) - ms(events[0]?.eventTime) : 0;
  parts.push(
    `between activities ${((whole - inActivities) / 1000).toFixed(2)} s of ${(whole / 1000).toFixed(2)} s`,
  );
  console.log(`    ${parts.join(', ')}`);
}

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const counts = new Map<string, number>();
const countLines = (file: string) =>
  counts.get(file) ??
  Number(execFileSync('wc', ['-l', file], { encoding: 'utf8' }).trim().split(/\s+/)[0]) - 1;

/** The CSV's points as a GeoPackage layer in WGS84, written by ogr2ogr (the bench's peer makes the input). */
function toGeoPackage(csv: string, rowCount: number): string {
  const out = csv.replace(/\.csv$/, '.gpkg');
  const res = spawnSync(
    'ogr2ogr',
    [
      '-f',
      'GPKG',
      out,
      csv,
      '-nln',
      'points',
      '-oo',
      'X_POSSIBLE_NAMES=lon',
      '-oo',
      'Y_POSSIBLE_NAMES=lat',
    ].concat(['-oo', 'AUTODETECT_TYPE=YES', '-a_srs', 'EPSG:4326', '-gt', '65536']),
    { encoding: 'utf8' },
  );
  if (res.status !== 0) throw new Error(`ogr2ogr (making the GeoPackage) failed: ${res.stderr}`);
  counts.set(out, rowCount);
  return out;
}

async function ogr2ogr(databaseUrl: string, file: string): Promise<Run> {
  const url = new URL(databaseUrl);
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const postgis = await sql`select 1 from pg_available_extensions where name = 'postgis'`;
  if (postgis.length) await sql`create extension if not exists postgis`;
  const pg = `PG:host=${url.hostname} port=${url.port || 5432} user=${decodeURIComponent(url.username)} dbname=${url.pathname.slice(1)}`;
  const cpu = startCpuSampler();
  const started = performance.now();
  const out = spawnSync(
    'ogr2ogr',
    [
      '-f',
      'PostgreSQL',
      pg,
      file,
      '-nln',
      'ref_ogr',
      ...(gpkg
        ? []
        : ['-oo', 'X_POSSIBLE_NAMES=lon', '-oo', 'Y_POSSIBLE_NAMES=lat', '-oo', 'AUTODETECT_TYPE=YES']),
      '-s_srs',
      'EPSG:4326',
      '-t_srs',
      'EPSG:3857',
      '-lco',
      'GEOMETRY_NAME=geom',
      '-gt',
      '65536',
    ],
    { encoding: 'utf8' },
  );
  const seconds = (performance.now() - started) / 1000;
  // spawnSync holds the event loop (no slices), and ogr2ogr and its server process end before the last
  // reading (their CPU is not seen by program): only the cores' use over the whole run means anything.
  console.log(`  ogr2ogr: ${cpu.stop().split(' (per ')[0]}`);
  if (out.status !== 0) throw new Error(`ogr2ogr failed: ${out.stderr}`);
  const [{ n }] = await sql`select count(*)::int as n from ref_ogr`;
  await sql.end();
  return {
    label: `ogr2ogr${postgis.length ? ' (PostGIS, GiST)' : ' (no PostGIS: WKB bytea, no index)'}`,
    rows: countLines(file),
    seconds,
    loaded: n,
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  let small = join(dir, 'points-small.csv');
  let large = join(dir, 'points.csv');
  console.log(`generating ${rows / 4} and ${rows} rows ...`);
  await writePointsCsv(small, rows / 4);
  await writePointsCsv(large, rows);
  if (gpkg) {
    small = toGeoPackage(small, rows / 4);
    large = toGeoPackage(large, rows);
  }
  console.log(`  ${(statSync(large).size / 2 ** 20).toFixed(0)} MB for ${rows} rows`);
  console.log(`load average at the start: ${loadAverage()}`);
  const stack = await startBenchStack(join(dir, 'stack'), values.pg as string);
  const loadAtStart = loadavg()[0];
  try {
    const token = await signIn(stack);
    const runs: Run[] = [];
    runs.push(await publish(stack, token, small, 'bench_quarter'));
    runs.push(await publish(stack, token, large, 'bench_full'));
    runs.push(await ogr2ogr(stack.databaseUrl, large));
    console.log(`\nload average at the end: ${loadAverage()}`);
    console.log('\n| load | rows | loaded | seconds | rows/s | peak RSS MB |\n|---|---|---|---|---|---|');
    for (const r of runs) {
      console.log(
        `| ${r.label} | ${r.rows} | ${r.loaded} | ${r.seconds.toFixed(2)} | ${Math.round(r.rows / r.seconds)} | ${r.peakRssMb ?? '-'} |`,
      );
    }
    console.log(
      `\nload average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`,
    );
    const [quarter, full, peer] = runs;
    const rate = (r: Run) => r.rows / r.seconds;
    console.log(
      `\nours / ogr2ogr, rows per second on the same file: ${(rate(full) / rate(peer)).toFixed(2)}x (target: at least 2x)`,
    );
    if (quarter.peakRssMb !== undefined && full.peakRssMb !== undefined)
      console.log(
        `peak RSS at 4x the rows: ${full.peakRssMb} MB against ${quarter.peakRssMb} MB (${(full.peakRssMb / quarter.peakRssMb).toFixed(2)}x)`,
      );
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
