/**
 * Append benchmark: a generated GeoPackage of points appended to a hosted feature layer through
 * `FeatureServer/0/append` (async, polled to Completed), against `ogr2ogr -append` of the same file into
 * a PostgreSQL table of the same database. Prints both times and rows per second, and where our job's
 * time went (staging and applying, from the workflow history).
 *
 *   npx tsx bench/append.ts [--rows 200000] [--pg postgres://postgres@127.0.0.1:5432/test]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { appendWorkflowId } from '../workflows/append-messages.js';
import { writePointsCsv } from './ingest-data.js';
import { type BenchStack, startBenchStack } from './ingest-stack.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '200000' },
    pg: {
      type: 'string',
      default: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const rows = Number(values.rows);

async function json(url: string, init?: RequestInit): Promise<Record<string, any>> {
  const res = await fetch(url, init);
  return (await res.json()) as Record<string, any>;
}

async function post(url: string, fields: Record<string, string>, file?: { path: string; name: string }) {
  const form = new FormData();
  form.set('f', 'json');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('file', await openAsBlob(file.path), file.name);
  return json(url, { method: 'POST', body: form });
}

async function signIn(stack: BenchStack): Promise<string> {
  const body = new URLSearchParams({ f: 'json', ...stack.admin, client: 'requestip', expiration: '600' });
  return (await json(`${stack.baseUrl}/sharing/rest/generateToken`, { method: 'POST', body })).token;
}

/** The CSV's points as a GeoPackage layer `points` in WGS84, written by ogr2ogr. */
function toGeoPackage(csv: string): string {
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
  return out;
}

/** Publishes the small GeoPackage as an editable layer: the append's target. */
async function publishTarget(stack: BenchStack, token: string, file: string, name: string): Promise<string> {
  const owner = stack.admin.username;
  const res = await post(
    `${stack.baseUrl}/sharing/rest/content/users/${owner}/publish`,
    { token, filetype: 'geoPackage', publishParameters: JSON.stringify({ name }) },
    { path: file, name: `${name}.gpkg` },
  );
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  for (;;) {
    const status = await json(
      `${stack.baseUrl}/sharing/rest/content/users/${owner}/items/${service.serviceItemId}/status?f=json&token=${token}&jobId=${service.jobId}`,
    );
    if (status.status === 'completed') break;
    if (status.status === 'failed') throw new Error(`publish failed: ${status.statusMessage}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const changed = await post(
    `${stack.baseUrl}/rest/admin/services/Hosted/${name}/FeatureServer/0/updateDefinition`,
    { token, updateDefinition: JSON.stringify({ capabilities: 'Query,Create,Update,Delete,Editing' }) },
  );
  if (!changed.success) throw new Error(`updateDefinition failed: ${JSON.stringify(changed)}`);
  return `${stack.baseUrl}/rest/services/Hosted/${name}/FeatureServer/0`;
}

interface Run {
  label: string;
  seconds: number;
  detail: string;
}

async function ours(stack: BenchStack, token: string, layer: string, file: string): Promise<Run> {
  const owner = stack.admin.username;
  const added = await post(
    `${stack.baseUrl}/sharing/rest/content/users/${owner}/addItem`,
    { token, type: 'GeoPackage', title: 'append bench source' },
    { path: file, name: 'points.gpkg' },
  );
  if (!added.id) throw new Error(`addItem failed: ${JSON.stringify(added)}`);
  const count = async () =>
    (await json(`${layer}/query?f=json&where=1%3D1&returnCountOnly=true&token=${token}`)).count as number;
  const before = await count();
  const started = performance.now();
  const res = await post(`${layer}/append`, {
    token,
    appendItemId: added.id,
    sourceTableName: 'points',
    async: 'true',
  });
  if (!res.statusUrl) throw new Error(`append failed: ${JSON.stringify(res)}`);
  let status: Record<string, any>;
  for (;;) {
    status = await json(`${res.statusUrl}?f=json&token=${token}`);
    if (status.status === 'Completed' || status.status === 'Failed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  if (status.status !== 'Completed')
    throw new Error(`append failed: ${JSON.stringify(status).slice(0, 2000)}`);
  const after = await count();
  if (after - before !== rows) throw new Error(`append added ${after - before} rows, not ${rows}`);
  const jobId = String(res.statusUrl).split('/').pop()!;
  return { label: 'ours: FeatureServer/0/append', seconds, detail: await activityTimes(stack, jobId) };
}

/** Where the job's time went: each activity from scheduled to completed, from the workflow history. */
async function activityTimes(stack: BenchStack, jobId: string): Promise<string> {
  const history = await stack.temporal.workflow.getHandle(appendWorkflowId(jobId)).fetchHistory();
  const scheduled = new Map<string, { name: string; at: number }>();
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
  const parts: string[] = [];
  for (const e of history.events ?? []) {
    const s = e.activityTaskScheduledEventAttributes;
    if (s) scheduled.set(String(e.eventId), { name: s.activityType?.name ?? '?', at: ms(e.eventTime) });
    const c = e.activityTaskCompletedEventAttributes;
    const from = c && scheduled.get(String(c.scheduledEventId));
    if (from) parts.push(`${from.name} ${((ms(e.eventTime) - from.at) / 1000).toFixed(2)} s`);
  }
  return parts.join(', ');
}

/** ogr2ogr -append of the same file into a table first made from the small file, as our layer was. */
async function peer(databaseUrl: string, small: string, large: string): Promise<Run> {
  const url = new URL(databaseUrl);
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const postgis = await sql`select 1 from pg_available_extensions where name = 'postgis'`;
  if (postgis.length) await sql`create extension if not exists postgis`;
  const pg = `PG:host=${url.hostname} port=${url.port || 5432} user=${decodeURIComponent(url.username)} dbname=${url.pathname.slice(1)}`;
  const run = (file: string, append: boolean) => {
    const out = spawnSync(
      'ogr2ogr',
      [
        ...(append ? ['-append'] : []),
        '-f',
        'PostgreSQL',
        pg,
        file,
        'points',
        '-nln',
        'ref_append',
        '-t_srs',
        'EPSG:3857',
        '-lco',
        'GEOMETRY_NAME=geom',
        '-gt',
        '65536',
      ],
      { encoding: 'utf8' },
    );
    if (out.status !== 0) throw new Error(`ogr2ogr failed: ${out.stderr}`);
  };
  run(small, false);
  const started = performance.now();
  run(large, true);
  const seconds = (performance.now() - started) / 1000;
  const [{ n }] = await sql`select count(*)::int as n from ref_append`;
  await sql.end();
  return {
    label: `ogr2ogr -append${postgis.length ? ' (PostGIS, GiST)' : ' (no PostGIS: WKB bytea, no index)'}`,
    seconds,
    detail: `${n} rows in the table`,
  };
}

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-append-'));
  console.log(`generating ${rows} rows ...`);
  await writePointsCsv(join(dir, 'target.csv'), 10);
  await writePointsCsv(join(dir, 'points.csv'), rows);
  const small = toGeoPackage(join(dir, 'target.csv'));
  const large = toGeoPackage(join(dir, 'points.csv'));
  console.log(`  ${(statSync(large).size / 2 ** 20).toFixed(1)} MB GeoPackage for ${rows} rows`);
  const stack = await startBenchStack(join(dir, 'stack'), values.pg as string);
  try {
    const token = await signIn(stack);
    const layer = await publishTarget(stack, token, small, 'bench_append');
    console.log(`load average at the start: ${loadAverage()}`);
    const runs = [await ours(stack, token, layer, large), await peer(stack.databaseUrl, small, large)];
    console.log(`load average at the end: ${loadAverage()}`);
    console.log('\n| load | rows | seconds | rows/s | detail |\n|---|---|---|---|---|');
    for (const r of runs)
      console.log(
        `| ${r.label} | ${rows} | ${r.seconds.toFixed(2)} | ${Math.round(rows / r.seconds)} | ${r.detail} |`,
      );
    console.log(`\nours / ogr2ogr, rows per second: ${(runs[1].seconds / runs[0].seconds).toFixed(2)}x`);
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
