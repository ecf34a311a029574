/**
 * The tile benchmark's serving side: the API started as production starts it (`api/main.ts`, its own
 * process or cluster, against the bench's PostgreSQL, MinIO and Temporal), and wrk runs over random paths.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SERVER_V8_FLAGS } from '../infra/server-heap.js';
import { freePort } from '../test/integration/support/ports.js';
import type { BenchStack } from './ingest-stack.js';

const execFileAsync = promisify(execFile);

export interface RunningApi {
  baseUrl: string;
  /** Where its processes write their event-loop delay each second (loopDelayIn). */
  eldDir: string;
  stop(): Promise<void>;
  /** CPU seconds (user and system) the API's processes have used so far, from /proc. */
  cpuSeconds(): number;
}

/** CPU seconds of `pid` and its child processes (one level: the cluster's servers), from /proc. */
function treeCpuSeconds(pid: number): number {
  const ticks = (p: number | string) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      return 0;
    }
  };
  let children: string[] = [];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean),
    );
  } catch {
    // The process is gone.
  }
  return (ticks(pid) + children.reduce((sum, c) => sum + ticks(c), 0)) / 100;
}

/** Starts `api/main.ts` with `processes` servers and waits until every one of them takes connections. */
/** Extra Node options for the API under test, e.g. TILE_BENCH_API_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
function apiNodeArgs(): string[] {
  return (process.env.TILE_BENCH_API_ARGS ?? '').split(/\s+/).filter(Boolean);
}

export async function startApi(
  stack: BenchStack,
  processes: number,
  memoryMb = 256,
  env: Record<string, string> = {},
  /**
   * Whether the processes run the event-loop delay probe (tile-bench-eld.ts). Its histogram wakes each
   * process every millisecond: an idle API of two servers so probed took 0.33-0.41 CPU-s in 5 s
   * beside nginx's runs, and nginx served 23,566-28,949 req/s beside it against 35,919 alone.
   */
  probed = true,
): Promise<RunningApi> {
  const port = await freePort();
  const eldDir = `${ELD_ROOT}-${port}`;
  rmSync(eldDir, { recursive: true, force: true });
  mkdirSync(eldDir, { recursive: true });
  const probe = join(import.meta.dirname, 'tile-bench-eld.ts');
  // As `npm run start:api` starts it: the serving V8 flags first (infra/server-heap.ts).
  const args = [
    ...SERVER_V8_FLAGS,
    ...apiNodeArgs(),
    '--import',
    'tsx',
    ...(probed ? ['--import', probe] : []),
    'api/main.ts',
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: join(import.meta.dirname, '..'),
    env: {
      ...process.env,
      ...stack.env,
      PORT: String(port),
      API_PROCESSES: String(processes),
      TILE_MEMORY_CACHE_MB: String(memoryMb),
      TILE_BENCH_ELD_DIR: eldDir,
      // The "api listening" line says when all servers are up (a cluster says it once, for all).
      LOG_LEVEL: 'info',
      ...env,
    },
    // TILE_BENCH_API_OUT names a file for the API's standard output (what `--trace-gc` prints, say).
    stdio: [
      'ignore',
      process.env.TILE_BENCH_API_OUT ? openSync(process.env.TILE_BENCH_API_OUT, 'a') : 'ignore',
      'pipe',
    ],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (runningEldDir === eldDir) runningEldDir = undefined;
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(eldDir, { recursive: true, force: true });
  };
  const listening = await new Promise<boolean>((resolve) => {
    let seen = '';
    const timer = setTimeout(() => resolve(false), 120_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4096);
      if (seen.includes('"api listening"')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', () => resolve(false));
  });
  if (!listening) {
    await stop();
    throw new Error('the API did not start');
  }
  runningEldDir = eldDir;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    eldDir,
    stop,
    cpuSeconds: () => treeCpuSeconds(child.pid ?? 0),
  };
}

/** Where the API processes write their event-loop delay each second (bench/tile-bench-eld.ts), per API. */
const ELD_ROOT = '/tmp/tile-bench-eld';
/** The directory of the API this process started last, while it runs (wrk runs against nginx have none). */
let runningEldDir: string | undefined;

/**
 * The running API's processes' event-loop delay between two instants: the worst second's p99 and the longest
 * delay seen, in ms, over all processes (undefined when nothing was written).
 */
export function loopDelayBetween(from: number, to: number): { p99: number; max: number } | undefined {
  return runningEldDir ? loopDelayIn(runningEldDir, from, to) : undefined;
}

/** As loopDelayBetween, for the API whose processes write into `dir` (RunningApi.eldDir). */
export function loopDelayIn(dir: string, from: number, to: number): { p99: number; max: number } | undefined {
  let p99 = -1;
  let max = -1;
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const f of files) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!line) continue;
      const s = JSON.parse(line) as { t: number; p99: number; max: number };
      // Each line covers the second before its time.
      if (s.t - 1000 < from || s.t > to + 1000) continue;
      p99 = Math.max(p99, s.p99);
      max = Math.max(max, s.max);
    }
  }
  return p99 < 0 ? undefined : { p99, max };
}

export interface WrkResult {
  rps: number;
  p50: string;
  p99: string;
  /** Responses other than 2xx/3xx (wrk's count); a run with any is not a serving measurement. */
  errors: number;
  /** Bytes per response (headers and body), from wrk's transfer rate. */
  bytesPerResponse: number;
  /** The API's event-loop delay during the run (ours only). */
  loop?: { p99: number; max: number };
}

const UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

/**
 * wrk -t2 -c50 -d10s (or `seconds`) over the paths in `pathsFile` (one per line, or `path<TAB>etag` for the
 * 304 script).
 */
export async function wrk(
  dir: string,
  script: string,
  pathsFile: string,
  url: string,
  env: Record<string, string> = {},
  seconds = 10,
): Promise<WrkResult> {
  const started = Date.now();
  const { stdout: out } = await execFileAsync(
    'timeout',
    [String(seconds + 20), 'wrk', '-t2', '-c50', `-d${seconds}s`, '-s', join(dir, script), '--latency', url],
    { env: { ...process.env, ...env, PATHS: pathsFile } },
  );
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const transfer = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(out);
  return {
    rps,
    bytesPerResponse: transfer && rps ? (Number(transfer[1]) * UNITS[transfer[2]]) / rps : 0,
    // The latency distribution's lines, not the thread stats' "+/- Stdev" percentages.
    p50: /^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? '?',
    p99: /^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? '?',
    errors: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    loop: loopDelayBetween(started, Date.now()),
  };
}

/** The wrk script for the 304 path: each request sends the tile's ETag back as If-None-Match. */
export function writeConditionalScript(dir: string): string {
  const name = 'rand-etag.lua';
  writeFileSync(
    join(dir, name),
    `local p, e = {}, {}
for l in io.lines(os.getenv("PATHS")) do
  local path, tag = l:match("^(.-)\\t(.*)$"); p[#p+1] = path; e[#e+1] = tag
end
math.randomseed(os.time())
request = function()
  local i = math.random(#p)
  return wrk.format("GET", p[i], { ["If-None-Match"] = e[i] })
end
`,
  );
  return name;
}

/** Each path with the ETag the API answers it with (for the 304 run). */
export async function etagsOf(baseUrl: string, paths: string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const p of paths) {
    const res = await fetch(`${baseUrl}${p}`);
    await res.arrayBuffer();
    lines.push(`${p}\t${res.headers.get('etag') ?? ''}`);
  }
  return lines;
}

export const formatRun = (label: string, r: WrkResult, nginxRps: number) =>
  `  ${label.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.padStart(8)}  p99 ${r.p99.padStart(8)}  ${(r.bytesPerResponse / 1024).toFixed(1).padStart(5)} KiB/response  ${(r.rps / nginxRps).toFixed(2)}x nginx${r.loop ? `  loop delay p99 ${r.loop.p99} ms, max ${r.loop.max} ms` : ''}${r.errors ? `  (${r.errors} non-2xx/3xx!)` : ''}`;
