/**
 * The whole machine's CPU use over a stretch of a bench, from /proc: how busy all cores were on average
 * and per slice of `sliceMs` (a pipeline's idle gaps show as low slices; full cores mean only less work
 * helps), and the CPU seconds each program took over the stretch (this bench's own process, PostgreSQL,
 * Temporal, MinIO, ...) and each thread of this process. A process that ends within the stretch is not seen
 * by program (its ticks go with it), though the cores' use counts it. Linux only; elsewhere it reports nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

interface Tick {
  busy: number;
  total: number;
}

function cpuTicks(): Tick | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are the idle time.
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - (f[3] ?? 0) - (f[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

const TICKS_PER_SECOND = 100;

/**
 * CPU clock ticks (user + system) of every process (`/proc`) or of every thread of this process
 * (`/proc/self/task`), by id, with its name.
 */
function ticksIn(dir: string): Map<number, { name: string; ticks: number }> {
  const out = new Map<number, { name: string; ticks: number }>();
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out; // no /proc
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`${dir}/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      // Fields after the name: state is f[0], utime f[11], stime f[12].
      out.set(Number(entry), { name, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // It ended while the directory was read.
    }
  }
  return out;
}

/** The CPU seconds each name took between two readings, the `most` largest, as "name seconds, ...". */
function cpuByName(
  before: Map<number, { ticks: number }>,
  after: Map<number, { name: string; ticks: number }>,
  nameOf: (id: number, name: string) => string,
  most: number,
): string {
  const byName = new Map<string, number>();
  for (const [id, now] of after) {
    const used = now.ticks - (before.get(id)?.ticks ?? 0);
    if (used <= 0) continue;
    const name = nameOf(id, now.name);
    byName.set(name, (byName.get(name) ?? 0) + used);
  }
  return [...byName]
    .sort((x, y) => y[1] - x[1])
    .slice(0, most)
    .map(([name, t]) => `${name} ${(t / TICKS_PER_SECOND).toFixed(2)}`)
    .join(', ');
}

export function startCpuSampler(sliceMs = 100): { stop(): string } {
  const first = cpuTicks();
  const processes = first ? ticksIn('/proc') : new Map();
  const threads = first ? ticksIn('/proc/self/task') : new Map();
  const ticks: Tick[] = first ? [first] : [];
  const timer = setInterval(() => {
    const t = cpuTicks();
    if (t) ticks.push(t);
  }, sliceMs);
  return {
    stop() {
      clearInterval(timer);
      const last = cpuTicks();
      if (!first || !last) return 'CPU use: not measured (no /proc/stat)';
      ticks.push(last);
      const programs = cpuByName(
        processes,
        ticksIn('/proc'),
        (pid, name) => (pid === process.pid ? 'this bench (API, worker, threads)' : name),
        6,
      );
      // This process's threads (the main thread, worker threads, libuv's pool, V8's helpers, the Temporal
      // SDK's core): which of them the CPU went to.
      const ownThreads = cpuByName(
        threads,
        ticksIn('/proc/self/task'),
        (tid, name) => (tid === process.pid ? 'main' : `${name}#${tid}`),
        8,
      );
      const pct = (a: Tick, b: Tick) =>
        b.total > a.total ? (100 * (b.busy - a.busy)) / (b.total - a.total) : 0;
      const slices = ticks.slice(1).map((t, i) => Math.round(pct(ticks[i], t)));
      return `CPU use of all cores ${pct(first, last).toFixed(0)}% (per ${sliceMs} ms: ${slices.join(' ')}); CPU-s by program: ${programs}; this process's threads: ${ownThreads}`;
    },
  };
}

/** The machine's load averages (1, 5 and 15 minutes) as the benches print them. */
export function loadAverageText(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
}
