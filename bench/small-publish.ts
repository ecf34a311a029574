/**
 * Small-publish benchmark: a 100-row CSV from addItem through analyze and publish to status
 * completed, as a client does it over HTTP, N runs on the embedded stack (PGlite) and on PostgreSQL.
 * Prints p50/p90/p99 of the whole and where the time goes: each HTTP call, the wait before the
 * workflow's first activity, each activity, the workflow's own steps, and the client's polling lag.
 *
 *   npx tsx bench/small-publish.ts [--runs 30] [--rows 100] [--poll 50] [--db both|pglite|postgres]
 *                                  [--pg postgres://postgres@127.0.0.1:5432/test]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { publishWorkflowId } from '../workflows/messages.js';
import { type BenchStack, startBenchStack } from './ingest-stack.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    rows: { type: 'string', default: '100' },
    poll: { type: 'string', default: '50' },
    db: { type: 'string', default: 'both' },
    pg: {
      type: 'string',
      default: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const RUNS = Number(values.runs);
const ROWS = Number(values.rows);
const POLL_MS = Number(values.poll);
const WARMUP = 3;
if (!['both', 'pglite', 'postgres'].includes(values.db as string))
  throw new Error(`--db ${values.db}: use both, pglite or postgres`);

function csv(rows: number): string {
  const lines = ['id,name,category,value,lat,lon'];
  for (let i = 1; i <= rows; i++) {
    lines.push(
      `${i},place ${i},c${i % 5},${(i * 1.5).toFixed(1)},${(41.7 + i / 1e4).toFixed(5)},${(-87.7 - i / 1e4).toFixed(5)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function json(url: string, init?: RequestInit): Promise<Record<string, any>> {
  const res = await fetch(url, init);
  const body = (await res.json()) as Record<string, any>;
  if (body.error) throw new Error(`${url}: ${JSON.stringify(body.error)}`);
  return body;
}

/** One run's parts in milliseconds, in the order they happen. */
type Parts = Record<string, number>;

async function onePublish(stack: BenchStack, token: string, n: number, data: string): Promise<Parts> {
  const owner = stack.admin.username;
  const rest = `${stack.baseUrl}/sharing/rest`;
  const name = `small_${Date.now().toString(36)}_${n}`;
  const t0 = Date.now();
  const add = new FormData();
  add.set('f', 'json');
  add.set('token', token);
  add.set('type', 'CSV');
  add.set('title', name);
  add.set('file', new Blob([data], { type: 'text/csv' }), `${name}.csv`);
  const item = await json(`${rest}/content/users/${owner}/addItem`, { method: 'POST', body: add });
  const t1 = Date.now();
  const analyzed = await json(`${rest}/content/features/analyze`, {
    method: 'POST',
    body: new URLSearchParams({ f: 'json', token, itemid: item.id, filetype: 'csv' }),
  });
  const t2 = Date.now();
  const parameters = { ...analyzed.publishParameters, name };
  const published = await json(`${rest}/content/users/${owner}/publish`, {
    method: 'POST',
    body: new URLSearchParams({
      f: 'json',
      token,
      itemid: item.id,
      filetype: 'csv',
      publishParameters: JSON.stringify(parameters),
    }),
  });
  const t3 = Date.now();
  const service = published.services?.[0];
  if (!service?.jobId) throw new Error(`publish: ${JSON.stringify(published)}`);
  let polls = 0;
  let pollMs = 0;
  let completedAt = 0;
  for (;;) {
    polls++;
    const asked = Date.now();
    const status = await json(
      `${rest}/content/users/${owner}/items/${service.serviceItemId}/status?f=json&token=${token}&jobId=${service.jobId}`,
    );
    pollMs += Date.now() - asked;
    if (status.status === 'completed') {
      completedAt = Number(status.lastUpdated);
      break;
    }
    if (status.status === 'failed') throw new Error(`publish failed: ${status.statusMessage}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const t4 = Date.now();
  // The job is completed in the database by the last step, before the workflow records that step.
  const handle = stack.temporal.workflow.getHandle(publishWorkflowId(service.jobId));
  await handle.result();
  const history = await handle.fetchHistory();
  const at = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
  const parts: Parts = { addItem: t1 - t0, analyze: t2 - t1, 'publish call': t3 - t2 };
  const scheduled = new Map<string, { name: string; at: number }>();
  let workflowStarted = 0;
  let firstScheduled = 0;
  let activities = 0;
  let lastDone = 0;
  for (const e of history.events ?? []) {
    if (e.workflowExecutionStartedEventAttributes) workflowStarted = at(e.eventTime);
    const s = e.activityTaskScheduledEventAttributes;
    if (s) {
      scheduled.set(String(e.eventId), { name: s.activityType?.name ?? '?', at: at(e.eventTime) });
      firstScheduled ||= at(e.eventTime);
    }
    // A local activity leaves a marker when the workflow task that ran it completes.
    if (e.markerRecordedEventAttributes) {
      const done = at(e.eventTime);
      firstScheduled ||= workflowStarted;
      parts['local activity (in its workflow task)'] = done - workflowStarted;
      activities += done - workflowStarted;
      lastDone = done;
    }
    const c = e.activityTaskCompletedEventAttributes;
    const from = c && scheduled.get(String(c.scheduledEventId));
    if (from) {
      const ms = at(e.eventTime) - from.at;
      parts[from.name] = (parts[from.name] ?? 0) + ms;
      activities += ms;
      lastDone = at(e.eventTime);
    }
  }
  // The last activity completes the job. Between the first activity's scheduling and then: the
  // activities, and the workflow tasks that decide each next step.
  parts['workflow steps'] = lastDone - firstScheduled - activities;
  parts['start to first activity'] = firstScheduled - workflowStarted;
  parts['workflow started → job completed'] = completedAt - workflowStarted;
  parts['job completed → client saw it'] = t4 - completedAt;
  parts.polls = polls;
  parts['one status call'] = pollMs / polls;
  parts.total = t4 - t0;
  return parts;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function benchOn(label: string, adminUrl: string | null) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-small-'));
  const stack = await startBenchStack(join(dir, 'stack'), adminUrl);
  try {
    const body = new URLSearchParams({ f: 'json', ...stack.admin, client: 'requestip', expiration: '600' });
    const { token } = await json(`${stack.baseUrl}/sharing/rest/generateToken`, { method: 'POST', body });
    const data = csv(ROWS);
    for (let i = 0; i < WARMUP; i++) await onePublish(stack, token, RUNS + i, data);
    const runs: Parts[] = [];
    const load = loadavg()[0];
    for (let i = 0; i < RUNS; i++) runs.push(await onePublish(stack, token, i, data));
    const totals = runs.map((r) => r.total).sort((a, b) => a - b);
    console.log(
      `\n${label}: ${RUNS} runs of ${ROWS} rows (after ${WARMUP} warm-up), polling every ${POLL_MS} ms, load average ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)}`,
    );
    console.log(
      `  total  p50 ${pct(totals, 50)} ms  p90 ${pct(totals, 90)} ms  p99 ${pct(totals, 99)} ms  (target p50 ≤ 250, p99 ≤ 500)`,
    );
    const keys = [...new Set(runs.flatMap((r) => Object.keys(r)))].filter((k) => k !== 'total');
    console.log('  where the time goes (median of each part, ms):');
    for (const k of keys) {
      const v = runs.map((r) => r[k] ?? 0).sort((a, b) => a - b);
      console.log(
        `    ${k.padEnd(26)} ${pct(v, 50).toFixed(0).padStart(5)}   (p90 ${pct(v, 90).toFixed(0)})`,
      );
    }
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (values.db !== 'postgres') await benchOn('embedded stack (PGlite)', null);
  if (values.db !== 'pglite') await benchOn('PostgreSQL', values.pg as string);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
