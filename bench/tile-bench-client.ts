/** The tile benchmark's client side: sign in, publish the points, publish the tile service and time it. */
import { readFileSync } from 'node:fs';
import { tilePublishWorkflowId } from '../workflows/tile-cache-messages.js';
import { startCpuSampler } from './cpu-sampler.js';
import type { BenchStack } from './ingest-stack.js';

async function post(stack: BenchStack, path: string, fields: Record<string, string>, file?: string) {
  const form = new FormData();
  form.set('f', 'json');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('file', new Blob([readFileSync(file)]), 'pts.geojson');
  const res = await fetch(`${stack.baseUrl}${path}`, { method: 'POST', body: form });
  return (await res.json()) as Record<string, any>;
}

export async function signInAs(stack: BenchStack): Promise<string> {
  const res = await post(stack, '/sharing/rest/generateToken', {
    username: stack.admin.username,
    password: stack.admin.password,
    client: 'requestip',
    expiration: '60',
  });
  return res.token as string;
}

async function waitFor(stack: BenchStack, token: string, itemId: string, jobId: string) {
  const owner = stack.admin.username;
  for (;;) {
    const url = `${stack.baseUrl}/sharing/rest/content/users/${owner}/items/${itemId}/status?f=json&token=${token}&jobId=${jobId}`;
    const status = (await (await fetch(url)).json()) as Record<string, any>;
    if (status.status === 'completed') return status;
    if (status.status === 'failed') throw new Error(`job failed: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Publishes the points, then a cached Map Service of them; returns the cache's tile count and build time. */
export async function publishAndCache(stack: BenchStack, token: string, file: string, levels: string) {
  const owner = stack.admin.username;
  const stamp = Date.now().toString(36);
  const features = await post(
    stack,
    `/sharing/rest/content/users/${owner}/publish`,
    { token, filetype: 'geojson', publishParameters: JSON.stringify({ name: `bench_pts_${stamp}` }) },
    file,
  );
  const f = features.services[0];
  await waitFor(stack, token, f.serviceItemId, f.jobId);
  const name = `bench_tiles_${stamp}`;
  const cpu = startCpuSampler();
  const started = performance.now();
  const tiles = await post(stack, `/sharing/rest/content/users/${owner}/publish`, {
    token,
    itemid: f.serviceItemId,
    filetype: 'featureService',
    outputType: 'Tiles',
    buildInitialCache: 'true',
    publishParameters: JSON.stringify({ name, levels }),
  });
  const t = tiles.services[0];
  const status = await waitFor(stack, token, t.serviceItemId, t.jobId);
  const cacheSeconds = (performance.now() - started) / 1000;
  const machine = cpu.stop();
  return {
    name,
    serviceItemId: t.serviceItemId as string,
    tiles: Number(status.tilesDone),
    cacheSeconds,
    timeline: await cacheBuildTimeline(stack, t.jobId),
    bundles: await bundleTimeline(stack, t.jobId),
    cpu: machine,
  };
}

/** The cache build workflow's events, a reader of their times in ms, and the workflow's start. */
async function buildHistory(stack: BenchStack, jobId: string) {
  const history = await stack.temporal.workflow
    .getHandle(`${tilePublishWorkflowId(jobId)}-cache`)
    .fetchHistory();
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
  const events = history.events ?? [];
  return { events, ms, start: ms(events[0]?.eventTime) };
}

/**
 * Where the cache build's time went, from the build workflow's history: the first activity scheduled and
 * the last completed (relative to the workflow's start), and per activity type the count, summed and
 * longest time from scheduled to completed (bundles run several at a time, so their sum exceeds the span).
 */
async function cacheBuildTimeline(stack: BenchStack, jobId: string): Promise<string> {
  const { events, ms, start } = await buildHistory(stack, jobId);
  const scheduled = new Map<string, { name: string; at: number }>();
  const byName = new Map<string, { count: number; sum: number; max: number }>();
  let last = start;
  for (const e of events) {
    const s = e.activityTaskScheduledEventAttributes;
    if (s) scheduled.set(String(e.eventId), { name: s.activityType?.name ?? '?', at: ms(e.eventTime) });
    const c = e.activityTaskCompletedEventAttributes;
    const from = c && scheduled.get(String(c.scheduledEventId));
    if (!from) continue;
    const took = ms(e.eventTime) - from.at;
    const agg = byName.get(from.name) ?? { count: 0, sum: 0, max: 0 };
    byName.set(from.name, { count: agg.count + 1, sum: agg.sum + took, max: Math.max(agg.max, took) });
    last = ms(e.eventTime);
  }
  const parts = [...byName].map(
    ([name, a]) =>
      `${name} ×${a.count} ${(a.sum / 1000).toFixed(2)} s (longest ${(a.max / 1000).toFixed(2)} s)`,
  );
  const end = ms(events[events.length - 1]?.eventTime);
  return `build workflow ${((end - start) / 1000).toFixed(2)} s, last activity done at ${((last - start) / 1000).toFixed(2)} s: ${parts.join(', ')}`;
}

/**
 * Each bundle activity of the build, in the order scheduled: its level, and when it was scheduled,
 * started and completed (ms from the workflow's start), to see the pipeline's gaps.
 */
async function bundleTimeline(stack: BenchStack, jobId: string): Promise<string> {
  const { events, ms, start } = await buildHistory(stack, jobId);
  const rows = new Map<string, { name: string; level: string; at: number[] }>();
  for (const e of events) {
    const at = ms(e.eventTime) - start;
    const s = e.activityTaskScheduledEventAttributes;
    if (s) {
      const data = s.input?.payloads?.[0]?.data;
      let level = '';
      try {
        if (data) level = String(JSON.parse(Buffer.from(data).toString('utf8')).level ?? '');
      } catch {}
      rows.set(String(e.eventId), { name: s.activityType?.name ?? '?', level, at: [at] });
    }
    const started = e.activityTaskStartedEventAttributes;
    if (started) rows.get(String(started.scheduledEventId))?.at.push(at);
    const done = e.activityTaskCompletedEventAttributes;
    if (done) rows.get(String(done.scheduledEventId))?.at.push(at);
  }
  return [...rows.values()]
    .map((r) => `${r.name}${r.level ? ` z${r.level}` : ''} ${r.at.map((t) => t.toFixed(0)).join('/')}`)
    .join('; ');
}

/** Shares an item with everyone, as a public basemap is (anonymous map clients, public caching). */
export async function shareWithEveryone(stack: BenchStack, token: string, itemId: string) {
  const owner = stack.admin.username;
  const res = await post(stack, `/sharing/rest/content/users/${owner}/items/${itemId}/share`, {
    token,
    everyone: 'true',
  });
  if (res.itemId !== itemId) throw new Error(`share failed: ${JSON.stringify(res)}`);
}
