/**
 * Scale-out benchmark, in the production shape: the API (`npm run start:api`) and 1, then 2, ...
 * workers (`npm run start:worker`) as separate processes against one PostgreSQL, Temporal dev server
 * and MinIO. Each round publishes the same CSVs at once over HTTP and waits for every job; it prints
 * the wall time, rows per second and the gain over one worker, with the load average.
 *
 *   npx tsx bench/scale-out.ts [--files 8] [--rows 250000] [--workers 1,2] [--worker-cpu 0.5]
 *                              [--pg postgres://postgres@127.0.0.1:5432/test]
 *
 * `--worker-cpu C` gives each worker process at most C cores (a CPU quota in a cgroup of its own, as
 * root), standing in for workers on machines of their own: on a small machine where one unlimited
 * worker already keeps every core busy, a second one can only add a process to schedule, so growth
 * with workers can only show where each worker has CPU of its own. PostgreSQL, MinIO, Temporal and the
 * API are not limited.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openAsBlob,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { SERVER_V8_FLAGS } from '../infra/server-heap.js';
import { writePointsCsv } from './ingest-data.js';
import { type BackingServices, startBackingServices } from './ingest-stack.js';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '8' },
    rows: { type: 'string', default: '250000' },
    workers: { type: 'string', default: '1,2' },
    'worker-cpu': { type: 'string' },
    pg: {
      type: 'string',
      default: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const FILES = Number(values.files);
const ROWS = Number(values.rows);
const WORKER_COUNTS = (values.workers as string).split(',').map(Number);
const WORKER_CPU = values['worker-cpu'] === undefined ? undefined : Number(values['worker-cpu']);
if (WORKER_CPU !== undefined && !(WORKER_CPU > 0))
  throw new Error('--worker-cpu takes a number of cores, e.g. 0.5');
const root = join(import.meta.dirname, '..');

function startProcess(script: 'start:api' | 'start:worker', env: Record<string, string>): ChildProcess {
  const entry = script === 'start:api' ? 'api/main.ts' : 'infra/worker-main.ts';
  // What `npm run <script>` runs, without npm's own process in between (so a kill reaches Node).
  // As the npm scripts start them: the API with the serving V8 flags (infra/server-heap.ts).
  const flags = script === 'start:api' ? SERVER_V8_FLAGS : [];
  return spawn(process.execPath, [...flags, '--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const CPU_PERIOD_US = 100_000;

/**
 * Puts a process (its threads and any child it starts) in a cgroup of its own that may use at most
 * `cores` of CPU time: cgroup v2's cpu.max where the unified hierarchy has the cpu controller, else
 * v1's CFS quota. Returns the cgroup's directory, to remove once the process has exited.
 */
function limitCpu(pid: number, cores: number, name: string): string {
  const quota = String(Math.round(cores * CPU_PERIOD_US));
  const v2 = '/sys/fs/cgroup';
  const v1 = '/sys/fs/cgroup/cpu';
  let dir: string;
  if (
    existsSync(join(v2, 'cgroup.controllers')) &&
    readFileSync(join(v2, 'cgroup.controllers'), 'utf8').includes('cpu')
  ) {
    dir = join(v2, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'cpu.max'), `${quota} ${CPU_PERIOD_US}`);
  } else if (existsSync(join(v1, 'cpu.cfs_quota_us'))) {
    dir = join(v1, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), quota);
  } else {
    throw new Error(
      '--worker-cpu needs a writable cgroup CPU controller (cgroup v2 cpu.max or v1 cpu.cfs_quota_us)',
    );
  }
  writeFileSync(join(dir, 'cgroup.procs'), String(pid));
  return dir;
}

async function stopProcess(p: ChildProcess) {
  if (p.exitCode !== null) return;
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
  await once(p, 'exit');
  clearTimeout(timer);
}

async function json(url: string, init?: RequestInit): Promise<Record<string, any>> {
  const res = await fetch(url, init);
  const body = (await res.json()) as Record<string, any>;
  if (body.error) throw new Error(`${url}: ${JSON.stringify(body.error)}`);
  return body;
}

async function waitForApi(baseUrl: string) {
  for (const started = Date.now(); Date.now() - started < 120_000; ) {
    try {
      if ((await fetch(`${baseUrl}/sharing/rest/info?f=json`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the API did not start within 120 s');
}

/**
 * Waits until `workers` distinct workers poll the round's queue for activities, so that a worker slowed
 * by its CPU limit while starting does not count against the round.
 */
async function waitForWorkers(address: string, taskQueue: string, workers: number) {
  const connection = await Connection.connect({ address });
  try {
    for (const started = Date.now(); Date.now() - started < 300_000; ) {
      const { pollers } = await connection.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name: taskQueue },
        taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      });
      if (new Set((pollers ?? []).map((p) => p.identity)).size >= workers) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${workers} worker(s) did not poll ${taskQueue} within 300 s`);
  } finally {
    await connection.close();
  }
}

/**
 * CPU seconds (user + system) a process and the processes it started (the API's own processes) have used
 * so far, from /proc (clock ticks of 1/100 s).
 */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    let seconds = (Number(fields[11]) + Number(fields[12])) / 100;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean);
      for (const child of children) seconds += cpuSeconds(Number(child));
    }
    return seconds;
  } catch {
    return 0;
  }
}

/** The machine's busy and total CPU time so far, in clock ticks, from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  const idle = cpu[3] + cpu[4];
  return { busy: total - idle, total };
}

async function round(backing: BackingServices, csvs: string[], workers: number) {
  const queue = `scale-out-${workers}-${Date.now()}`;
  const env: Record<string, string> = { ...backing.env, TEMPORAL_TASK_QUEUE: queue };
  const processes = [startProcess('start:api', env)];
  const cgroups: string[] = [];
  try {
    for (let i = 0; i < workers; i++) {
      const worker = startProcess('start:worker', env);
      processes.push(worker);
      if (WORKER_CPU !== undefined) cgroups.push(limitCpu(worker.pid as number, WORKER_CPU, `${queue}-${i}`));
    }
    const baseUrl = `http://127.0.0.1:${env.PORT}`;
    await waitForApi(baseUrl);
    await waitForWorkers(env.TEMPORAL_ADDRESS, queue, workers);
    const body = new URLSearchParams({ f: 'json', ...backing.admin, client: 'requestip', expiration: '600' });
    const { token } = await json(`${baseUrl}/sharing/rest/generateToken`, { method: 'POST', body });
    const owner = backing.admin.username;
    const load = loadavg()[0];
    const started = performance.now();
    const cpuAtStart = processes.map((p) => cpuSeconds(p.pid));
    const machineAtStart = machineTicks();
    const jobs = await Promise.all(
      csvs.map(async (file, i) => {
        const form = new FormData();
        form.set('f', 'json');
        form.set('token', token);
        form.set('filetype', 'csv');
        const name = `scale_${workers}w_${i}_${Date.now().toString(36)}`;
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
        form.set('file', await openAsBlob(file), `${name}.csv`);
        const res = await json(`${baseUrl}/sharing/rest/content/users/${owner}/publish`, {
          method: 'POST',
          body: form,
        });
        return res.services[0] as { serviceItemId: string; jobId: string };
      }),
    );
    let featureCount = 0;
    await Promise.all(
      jobs.map(async (job) => {
        for (;;) {
          const status = await json(
            `${baseUrl}/sharing/rest/content/users/${owner}/items/${job.serviceItemId}/status?f=json&token=${token}&jobId=${job.jobId}`,
          );
          if (status.status === 'completed') {
            featureCount += Number(status.featureCount ?? 0);
            return;
          }
          if (status.status === 'failed') throw new Error(`job ${job.jobId} failed: ${status.statusMessage}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    // Where the CPU went: each of our processes' share of the round (in cores), and how busy the whole
    // machine was (every process of every user): a machine near 100% busy is the limit, not the worker.
    const cores = processes.map((p, i) => (cpuSeconds(p.pid) - cpuAtStart[i]) / seconds);
    const machine = machineTicks();
    const busy = (machine.busy - machineAtStart.busy) / (machine.total - machineAtStart.total);
    const cpu = { api: cores[0], workers: cores.slice(1), machineBusy: busy };
    return { workers, seconds, rowsPerSecond: (FILES * ROWS) / seconds, featureCount, load, cpu };
  } finally {
    for (const p of processes.reverse()) await stopProcess(p);
    for (const dir of cgroups) rmdirSync(dir);
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const csvs: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const file = join(dir, `points-${i}.csv`);
    await writePointsCsv(file, ROWS);
    csvs.push(file);
  }
  const backing = await startBackingServices(join(dir, 'stack'), values.pg as string);
  try {
    const results = [];
    for (const n of WORKER_COUNTS) {
      const r = await round(backing, csvs, n);
      results.push(r);
      console.log(
        `${n} worker(s): ${FILES} × ${ROWS} rows in ${r.seconds.toFixed(1)} s = ${Math.round(r.rowsPerSecond)} rows/s (${r.featureCount} features; load average ${r.load.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end)`,
      );
      console.log(
        `  CPU in cores over the round: API ${r.cpu.api.toFixed(2)}, worker(s) ${r.cpu.workers.map((w) => w.toFixed(2)).join(' + ')}; the machine (${cpus().length} cores, everyone's processes) ${(r.cpu.machineBusy * 100).toFixed(0)}% busy`,
      );
    }
    const base = results[0].rowsPerSecond;
    if (WORKER_CPU !== undefined) console.log(`\neach worker process limited to ${WORKER_CPU} cores`);
    console.log('\n| workers | seconds | rows/s | vs first | load average at start |\n|---|---|---|---|---|');
    for (const r of results) {
      console.log(
        `| ${r.workers} | ${r.seconds.toFixed(1)} | ${Math.round(r.rowsPerSecond)} | ${(r.rowsPerSecond / base).toFixed(2)}× | ${r.load.toFixed(2)} |`,
      );
    }
  } finally {
    await backing.stop();
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
