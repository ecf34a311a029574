/**
 * The whole machine's CPU use over a stretch of a bench, from /proc: how busy all cores were on average
 * and per slice of `sliceMs` (a pipeline's idle gaps show as low slices; full cores mean only less work
 * helps), and the CPU seconds each program took over the stretch (this bench's own process, PostgreSQL,
 * Temporal, MinIO, ...). Linux only; elsewhere it reports nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';

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

/** CPU clock ticks (user + system) of every process, by pid, with its program name. */
function processTicks(): Map<number, { name: string; ticks: number }> {
  const out = new Map<number, { name: string; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      // Fields after the name: state is f[0], utime f[11], stime f[12].
      out.set(Number(entry), { name, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // The process ended while the directory was read.
    }
  }
  return out;
}

/** CPU clock ticks of each thread of this process, by thread id, with the thread's name. */
function threadTicks(): Map<number, { name: string; ticks: number }> {
  const out = new Map<number, { name: string; ticks: number }>();
  try {
    for (const entry of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${entry}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        const name = stat.slice(stat.indexOf('(') + 1, close);
        const f = stat.slice(close + 2).split(' ');
        out.set(Number(entry), { name, ticks: Number(f[11]) + Number(f[12]) });
      } catch {
        // The thread ended while the directory was read.
      }
    }
  } catch {
    // No /proc.
  }
  return out;
}

const TICKS_PER_SECOND = 100;

export function startCpuSampler(sliceMs = 100): { stop(): string } {
  const first = cpuTicks();
  const processes = first ? processTicks() : new Map();
  const threads = first ? threadTicks() : new Map();
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
      const byName = new Map<string, number>();
      for (const [pid, now] of processTicks()) {
        const before = processes.get(pid)?.ticks ?? 0;
        const used = now.ticks - before;
        if (used <= 0) continue;
        const name = pid === process.pid ? 'this bench (API, worker, threads)' : now.name;
        byName.set(name, (byName.get(name) ?? 0) + used);
      }
      const programs = [...byName]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([name, t]) => `${name} ${(t / TICKS_PER_SECOND).toFixed(2)}`)
        .join(', ');
      // This process's threads by name (the main thread, worker threads, libuv's pool, V8's helpers,
      // the Temporal SDK's core): which of them the CPU went to.
      const byThread = new Map<string, number>();
      for (const [tid, now] of threadTicks()) {
        const used = now.ticks - (threads.get(tid)?.ticks ?? 0);
        if (used <= 0) continue;
        const name = tid === process.pid ? 'main' : `${now.name}#${tid}`;
        byThread.set(name, (byThread.get(name) ?? 0) + used);
      }
      const ownThreads = [...byThread]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([name, t]) => `${name} ${(t / TICKS_PER_SECOND).toFixed(2)}`)
        .join(', ');
      const pct = (a: Tick, b: Tick) =>
        b.total > a.total ? (100 * (b.busy - a.busy)) / (b.total - a.total) : 0;
      const slices = ticks.slice(1).map((t, i) => Math.round(pct(ticks[i], t)));
      return `CPU use of all cores ${pct(first, last).toFixed(0)}% (per ${sliceMs} ms: ${slices.join(' ')}); CPU-s by program: ${programs}; this process's threads: ${ownThreads}`;
    },
  };
}
