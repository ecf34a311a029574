/**
 * Small-publish latency: a 100-row x/y CSV through addItem -> analyze -> publish -> status completed,
 * `--runs` times against one stack (API and worker in this process, as bench/ingest-stack.ts runs them);
 * prints p50/p90 of the analyze call alone and of the whole chain, with the load average.
 *
 *   npx tsx bench/analyze-latency.ts [--runs 20] [--pg postgres://postgres@127.0.0.1:5432/test]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchStack, startBenchStack } from './ingest-stack.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    pg: {
      type: 'string',
      default: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const runs = Number(values.runs);

const csv = [
  'name,lat,lon,value',
  ...Array.from({ length: 100 }, (_, i) => `p${i},${(i % 80) - 40 + 0.5},${(i % 170) - 85 + 0.25},${i}`),
].join('\n');

async function json(url: string, init?: RequestInit): Promise<Record<string, any>> {
  const res = await fetch(url, init);
  return (await res.json()) as Record<string, any>;
}

function form(entries: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) f.set(k, v);
  return f;
}

async function chain(stack: BenchStack, token: string, i: number) {
  const owner = stack.admin.username;
  const base = `${stack.baseUrl}/sharing/rest/content`;
  const started = performance.now();
  const add = form({ f: 'json', token, type: 'CSV', title: `latency_${i}` });
  add.set('file', new Blob([csv]), `latency_${i}.csv`);
  const item = await json(`${base}/users/${owner}/addItem`, { method: 'POST', body: add });
  if (!item.id) throw new Error(`addItem: ${JSON.stringify(item)}`);
  const a0 = performance.now();
  const analyzed = await json(`${base}/features/analyze`, {
    method: 'POST',
    body: form({ f: 'json', token, itemid: item.id, filetype: 'csv' }),
  });
  const analyzeMs = performance.now() - a0;
  const pp = analyzed.publishParameters;
  if (pp?.locationType !== 'coordinates') throw new Error(`analyze: ${JSON.stringify(analyzed)}`);
  pp.name = `latency_${process.pid}_${i}`;
  const published = await json(`${base}/users/${owner}/publish`, {
    method: 'POST',
    body: form({
      f: 'json',
      token,
      itemid: item.id,
      filetype: 'csv',
      publishParameters: JSON.stringify(pp),
    }),
  });
  const service = published.services?.[0];
  if (!service?.jobId) throw new Error(`publish: ${JSON.stringify(published)}`);
  for (;;) {
    const status = await json(
      `${base}/users/${owner}/items/${service.serviceItemId}/status?f=json&token=${token}&jobId=${service.jobId}`,
    );
    if (status.status === 'completed') break;
    if (status.status === 'failed') throw new Error(`publish failed: ${status.statusMessage}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { analyzeMs, chainMs: performance.now() - started };
}

/** Where the last analyze workflow's time went: each history event after the start, in ms. */
async function printLastAnalyzeHistory(stack: BenchStack) {
  for await (const w of stack.temporal.workflow.list({ query: "WorkflowType = 'analyzeWorkflow'" })) {
    const history = await stack.temporal.workflow.getHandle(w.workflowId, w.runId).fetchHistory();
    const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
      Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
    const events = history.events ?? [];
    const t0 = ms(events[0]?.eventTime);
    console.log(
      `  last analyze workflow: ${events.map((e) => `${e.eventType} +${(ms(e.eventTime) - t0).toFixed(0)}`).join(', ')}`,
    );
    return;
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-analyze-'));
  const stack = await startBenchStack(join(dir, 'stack'), values.pg as string);
  try {
    const body = new URLSearchParams({ f: 'json', ...stack.admin, client: 'requestip', expiration: '600' });
    const token = (await json(`${stack.baseUrl}/sharing/rest/generateToken`, { method: 'POST', body })).token;
    await chain(stack, token, 9999); // warm-up: first workflow, first bundle load
    console.log(`load average at the start: ${load()}`);
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await chain(stack, token, i));
    const a = results.map((r) => r.analyzeMs);
    const c = results.map((r) => r.chainMs);
    console.log(`load average at the end: ${load()}`);
    await printLastAnalyzeHistory(stack);
    console.log(
      `analyze (100-row CSV item): p50 ${pct(a, 50).toFixed(0)} ms, p90 ${pct(a, 90).toFixed(0)} ms; ` +
        `addItem->analyze->publish->completed: p50 ${pct(c, 50).toFixed(0)} ms, p90 ${pct(c, 90).toFixed(0)} ms (${runs} runs)`,
    );
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
