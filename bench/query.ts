/**
 * A bbox query returning about 1,000 of 1,000,000 points, through FeatureServer/0/query (f=json, all
 * fields, geometry) against the same query written by hand on the same PostgreSQL table, with its JSON
 * rendering (see bench/README.md):
 *   npx tsx bench/query.ts [--rows 1000000] [--seconds 10] [--rounds 5] [--concurrency 1,16] [--pg postgres://…]
 *
 * The product runs as production runs it (api/main.ts, one process, bench/tile-bench-serve.ts) against the
 * bench stack; a process of its own (bench/query-client.ts) is the client of both sides. Ours: an HTTP GET per query, the answer read
 * whole as text. By hand: one prepared statement on the table with the same filter the plan uses (the box,
 * and the point in the box, so the point index answers), the rows rendered as Esri JSON features
 * (attributes named after the layer's fields, the point read from its box) and stringified. Both sides ask the
 * same boxes in the same order; a sample is checked to return the same object ids. At each concurrency the
 * two sides take turns, `--rounds` rounds each of `--seconds / --rounds` seconds, and each side's latencies
 * of all its rounds make its percentiles, so a machine that slows or speeds up during the run moves both.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverageText } from './cpu-sampler.js';
import { writePointsCsv } from './ingest-data.js';
import { startBenchStack } from './ingest-stack.js';
import type { QueryClientJob } from './query-client.js';
import { startApi } from './tile-bench-serve.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '1,16' },
    pg: {
      type: 'string',
      default: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const rows = Number(values.rows);
const seconds = Number(values.seconds);
const rounds = Math.max(1, Math.floor(Number(values.rounds)));
const dir = '/tmp/query-bench';
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

async function json(url: string, init?: RequestInit): Promise<Record<string, any>> {
  return (await (await fetch(url, init)).json()) as Record<string, any>;
}

/**
 * The API, answering: a free port found for it may be taken by another process before it binds (a busy
 * machine), so an API that does not answer is stopped and started again on another port.
 */
async function startHealthyApi() {
  for (let attempt = 1; ; attempt++) {
    const api = await startApi(stack, 1);
    const ok = await fetch(`${api.baseUrl}/rest/info?f=json`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return api;
    await api.stop();
    if (attempt === 3) throw new Error('the API did not answer after three starts');
  }
}

const stack = await startBenchStack(join(dir, 'stack'), values.pg);
try {
  const csv = join(dir, 'points.csv');
  await writePointsCsv(csv, rows);
  const token = (
    await json(`${stack.baseUrl}/sharing/rest/generateToken`, {
      method: 'POST',
      body: new URLSearchParams({ f: 'json', ...stack.admin, client: 'requestip', expiration: '600' }),
    })
  ).token as string;
  const name = `query_bench_${Date.now().toString(36)}`;
  const form = new FormData();
  form.set('f', 'json');
  form.set('token', token);
  form.set('filetype', 'csv');
  form.set(
    'publishParameters',
    JSON.stringify({
      name,
      locationType: 'coordinates',
      latitudeFieldName: 'lat',
      longitudeFieldName: 'lon',
      layerInfo: { capabilities: 'Query' },
    }),
  );
  const { openAsBlob } = await import('node:fs');
  form.set('file', await openAsBlob(csv), `${name}.csv`);
  const owner = stack.admin.username;
  const published = await json(`${stack.baseUrl}/sharing/rest/content/users/${owner}/publish`, {
    method: 'POST',
    body: form,
  });
  const service = published.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(published)}`);
  for (;;) {
    const status = await json(
      `${stack.baseUrl}/sharing/rest/content/users/${owner}/items/${service.serviceItemId}/status?f=json&token=${token}&jobId=${service.jobId}`,
    );
    if (status.status === 'completed') break;
    if (status.status === 'failed') throw new Error(`publish failed: ${status.statusMessage}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`published ${rows} points as ${name} (load ${loadAverageText()})`);

  const api = await startHealthyApi();
  try {
    // Both sides are measured from a process of their own (bench/query-client.ts).
    const job: QueryClientJob = {
      apiUrl: api.baseUrl,
      eldDir: api.eldDir,
      databaseUrl: stack.databaseUrl,
      serviceName: name,
      serviceItemId: service.serviceItemId,
      token,
      rows,
      seconds,
      rounds,
      concurrency: values.concurrency.split(',').map(Number),
    };
    const client = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'query-client.ts'), JSON.stringify(job)],
      { stdio: 'inherit' },
    );
    const code = await new Promise<number | null>((resolve) => client.once('exit', resolve));
    if (code !== 0) throw new Error(`the query client ended with ${code}`);
  } finally {
    await api.stop();
  }
} finally {
  await stack.stop();
}
// After the stack has stopped, two message ports of this process stay referenced and kept it waiting
// for minutes (seen with the inspector); end it as bench/ingest.ts does.
process.exit(0);
