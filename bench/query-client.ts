/**
 * The measuring half of bench/query.ts, in a process of its own: the client of both sides. The bench's
 * own process holds the stack (the worker that has just loaded the million points, its Temporal client
 * and MinIO's), and its collections, 30–70 ms at times after the load, fell on whichever side was
 * measuring (session 40); here both sides run in a process that holds nothing else. Started by
 * bench/query.ts with the job as JSON in argv[2]; prints its results.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import postgres from 'postgres';
import { featureTableName } from '../db/repositories/feature-tables.js';
import { lonLatToMercator } from '../lib/tiles/web-mercator.js';
import { loadAverageText } from './cpu-sampler.js';
import { loopDelayIn } from './tile-bench-serve.js';

/** What bench/query.ts hands over. */
export interface QueryClientJob {
  apiUrl: string;
  eldDir: string;
  databaseUrl: string;
  serviceName: string;
  serviceItemId: string;
  token: string;
  rows: number;
  seconds: number;
  rounds: number;
  concurrency: number[];
}

const job = JSON.parse(process.argv[2] ?? '{}') as QueryClientJob;
const { rows, seconds, rounds, token } = job;
const name = job.serviceName;

/** Boxes of about 1,000 points each over the data (the points are spread evenly, ingest-data.ts). */
function boxes(count: number, total: number): [number, number, number, number][] {
  // The data spans 0.45° × 0.38° from (-87.94, 41.64); a box of that shape scaled by √(1000/total).
  const scale = Math.sqrt(1000 / total);
  const w = 0.45 * scale;
  const h = 0.38 * scale;
  let seed = 11;
  const rand = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  return Array.from({ length: count }, () => {
    const west = -87.94 + rand() * (0.45 - w);
    const south = 41.64 + rand() * (0.38 - h);
    const [x0, y0] = lonLatToMercator(west, south);
    const [x1, y1] = lonLatToMercator(west + w, south + h);
    return [x0, y0, x1, y1];
  });
}

/** One call's start and end (performance.now() ms), for the tail's report. */
interface Call {
  start: number;
  end: number;
}

/**
 * This process's own garbage collections of 2 ms or more (it is the client of both sides), each with its
 * kind: a scavenge of the young objects (`minor`) or a full collection (`major`, `incremental`).
 */
const pauses: { start: number; end: number; kind: string }[] = [];
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = GC_KINDS[(e as unknown as { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'other';
    if (e.duration >= 2) pauses.push({ start: e.startTime, end: e.startTime + e.duration, kind });
  }
}).observe({ entryTypes: ['gc'] });

/**
 * The `n` slowest calls of a side, each with what else happened in its time: the API's worst event-loop
 * delay in the seconds it spanned (ours only) and this process's collections overlapping it.
 */
function tailReport(calls: Call[], n: number, api: boolean): string {
  const origin = performance.timeOrigin;
  return [...calls]
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, n)
    .map((c) => {
      const during = pauses.filter((p) => p.end > c.start && p.start < c.end);
      const gc = during.reduce((sum, p) => sum + Math.min(p.end, c.end) - Math.max(p.start, c.start), 0);
      const kinds = [...new Set(during.map((p) => p.kind))].join('+');
      const loop = api ? loopDelayIn(job.eldDir, origin + c.start, origin + c.end) : undefined;
      return `${(c.end - c.start).toFixed(1)}${loop ? ` (loop ${loop.max.toFixed(0)})` : ''}${gc > 0 ? ` (gc ${gc.toFixed(0)} ${kinds})` : ''}`;
    })
    .join(', ');
}

interface Timing {
  rps: number;
  p50: number;
  p99: number;
  count: number;
}

/** `concurrency` loops over the boxes for `forSeconds`; latencies of every call, in ms, and the time taken. */
async function measureRound(
  concurrency: number,
  ask: (b: [number, number, number, number]) => Promise<unknown>,
  list: [number, number, number, number][],
  forSeconds: number,
  start: number,
  calls?: Call[],
): Promise<{ latencies: number[]; elapsed: number }> {
  const latencies: number[] = [];
  let next = start;
  const started = performance.now();
  const until = started + forSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const b = list[next++ % list.length];
        const t = performance.now();
        await ask(b);
        const end = performance.now();
        latencies.push(end - t);
        calls?.push({ start: t, end });
      }
    }),
  );
  return { latencies, elapsed: (performance.now() - started) / 1000 };
}

function timingOf(latencies: number[], elapsed: number): Timing {
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { rps: latencies.length / elapsed, p50: at(50), p99: at(99), count: latencies.length };
}

/** One side alone for `seconds`. */
async function measure(
  concurrency: number,
  ask: (b: [number, number, number, number]) => Promise<unknown>,
  list: [number, number, number, number][],
): Promise<Timing> {
  const { latencies, elapsed } = await measureRound(concurrency, ask, list, seconds, 0);
  return timingOf(latencies, elapsed);
}

/**
 * Both sides in turns: `rounds` rounds each, hand first in odd rounds and ours first in even ones, each
 * round going on through the boxes where that side's last round stopped.
 */
async function measureInTurns(
  concurrency: number,
  sides: [
    (b: [number, number, number, number]) => Promise<unknown>,
    (b: [number, number, number, number]) => Promise<unknown>,
  ],
  list: [number, number, number, number][],
  calls: [Call[], Call[]] = [[], []],
): Promise<[Timing, Timing]> {
  const pooled = [
    { latencies: [] as number[], elapsed: 0 },
    { latencies: [] as number[], elapsed: 0 },
  ];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order) {
      const r = await measureRound(
        concurrency,
        sides[side],
        list,
        seconds / rounds,
        pooled[side].latencies.length,
        calls[side],
      );
      pooled[side].latencies.push(...r.latencies);
      pooled[side].elapsed += r.elapsed;
    }
  }
  return [timingOf(pooled[0].latencies, pooled[0].elapsed), timingOf(pooled[1].latencies, pooled[1].elapsed)];
}

const sqlClient = postgres(job.databaseUrl, { max: 16, onnotice: () => {} });
try {
  const layerUrl = `${job.apiUrl}/rest/services/Hosted/${name}/FeatureServer/0`;
  const layer = (await (await fetch(`${layerUrl}?f=json&token=${token}`)).json()) as Record<string, any>;
  const fields = (layer.fields as { name: string; type: string }[]).filter(
    (f) => f.type !== 'esriFieldTypeOID',
  );
  const oidField = String(layer.objectIdField);
  const table = featureTableName(job.serviceItemId, 0);
  // a_n is the n-th attribute field (db/repositories/feature-tables.ts).
  const columns = fields.map((_f, n) => `"a_${n}"`).join(', ');
  // A loaded point keeps no shape text: its box is the point (activities/publish/row-encoder.ts), so
  // the hand-written reading takes its two numbers from there.
  const statement = `select "objectid", ${columns}, ("bbox"[0])[0] as "x", ("bbox"[0])[1] as "y" from "${table}" where "bbox" && $1::box and ("bbox"[0]) <@ $1::box order by "objectid" limit 2001`;

  const ours = async (b: [number, number, number, number]) => {
    const url = `${layerUrl}/query?f=json&where=1%3D1&outFields=*&returnGeometry=true&geometryType=esriGeometryEnvelope&spatialRel=esriSpatialRelIntersects&inSR=102100&geometry=${b.join('%2C')}&token=${token}`;
    const res = await fetch(url);
    return res.text();
  };
  const byHand = async (b: [number, number, number, number]) => {
    const found = await sqlClient.unsafe(statement, [`(${b[0]},${b[1]}),(${b[2]},${b[3]})`], {
      prepare: true,
    });
    const features = found.map((r) => {
      const attributes: Record<string, unknown> = { [oidField]: r.objectid };
      fields.forEach((f, n) => {
        attributes[f.name] = r[`a_${n}`];
      });
      return { attributes, geometry: r.x === null ? null : { x: r.x, y: r.y } };
    });
    // The driver's result let go of once read, as the product does (db/client.ts detachedRows): left whole,
    // postgres.js results live on through this process's young collections and swell its heap, whose
    // full collections then fall on either side's calls.
    found.length = 0;
    return JSON.stringify({
      objectIdFieldName: oidField,
      geometryType: 'esriGeometryPoint',
      spatialReference: { wkid: 102100, latestWkid: 3857 },
      features,
      exceededTransferLimit: false,
    });
  };

  const list = boxes(200, rows);
  // Same answers: the object ids of a sample of boxes.
  let sizes = 0;
  for (const b of list.slice(0, 10)) {
    const a = JSON.parse(await ours(b)) as { features?: { attributes: Record<string, number> }[] };
    const h = JSON.parse(await byHand(b)) as { features: { attributes: Record<string, number> }[] };
    const idsA = (a.features ?? []).map((f) => f.attributes[oidField]);
    const idsH = h.features.map((f) => f.attributes[oidField]);
    if (JSON.stringify(idsA) !== JSON.stringify(idsH)) {
      throw new Error(
        `different answers for box ${b.join(',')}: ${idsA.length} against ${idsH.length} features`,
      );
    }
    sizes += idsA.length;
  }
  console.log(
    `10 sampled boxes: the same object ids on both sides, ${(sizes / 10).toFixed(0)} features each on average`,
  );
  // Warm both sides (plans, caches, JIT) before measuring.
  await measure(4, ours, list.slice(0, 40));
  await measure(4, byHand, list.slice(0, 40));
  // Where ours spends its time, one request at a time: the HTTP floor (rest/info, no lookup), the
  // layer resource (token, service, access and layer lookups, no query), the query counting only
  // (lookups, parameters, planning and a count statement) and the statement alone by hand.
  const phase = async (label: string, ask: (b: [number, number, number, number]) => Promise<unknown>) => {
    const t = await measure(1, ask, list);
    console.log(`  ${label.padEnd(48)} p50 ${t.p50.toFixed(2).padStart(6)} ms`);
  };
  const text = (url: string) => fetch(url).then((r) => r.text());
  console.log(`phases at concurrency 1 (load ${loadAverageText()})`);
  await phase('HTTP floor: rest/info', () => text(`${job.apiUrl}/rest/info?f=json`));
  await phase('lookups: the layer resource', () => text(`${layerUrl}?f=json&token=${token}`));
  await phase('lookups + count query', (b) =>
    text(
      `${layerUrl}/query?f=json&returnCountOnly=true&geometryType=esriGeometryEnvelope&inSR=102100&geometry=${b.join('%2C')}&token=${token}`,
    ),
  );
  await phase('by hand: the statement, rows not rendered', (b) =>
    sqlClient.unsafe(statement, [`(${b[0]},${b[1]}),(${b[2]},${b[3]})`], { prepare: true }),
  );
  for (const c of job.concurrency) {
    const calls: [Call[], Call[]] = [[], []];
    const [h, o] = await measureInTurns(c, [byHand, ours], list, calls);
    const fmt = (t: Timing) =>
      `${t.rps.toFixed(0).padStart(6)} queries/s  p50 ${t.p50.toFixed(1).padStart(6)} ms  p99 ${t.p99.toFixed(1).padStart(6)} ms`;
    console.log(`concurrency ${c}, ${rounds} rounds each in turns (load ${loadAverageText()})`);
    console.log(`  hand-written SQL + JSON  ${fmt(h)}`);
    console.log(`  ours, FeatureServer      ${fmt(o)}`);
    console.log(
      `  ratio ours / hand: p50 ${(o.p50 / h.p50).toFixed(2)}x, p99 ${(o.p99 / h.p99).toFixed(2)}x, throughput ${(h.rps / o.rps).toFixed(2)}x slower`,
    );
    // The tail's slowest calls, ms, with the API's worst loop delay in their seconds and this process's
    // collections during them: a stall of the server, of the client, or neither.
    console.log(`  slowest by hand: ${tailReport(calls[0], 10, false)}`);
    console.log(`  slowest of ours: ${tailReport(calls[1], 10, true)}`);
  }
} finally {
  await sqlClient.end();
}
// Kept-alive connections to the API would hold the process for their idle time.
process.exit(0);
