/**
 * The embedded stack for development and tests: a Temporal dev server (with its UI) and a MinIO server,
 * run as child processes from binaries that scripts/ensure-deps.mjs built into the cache directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';

export const SEARCH_ATTRIBUTES = {
  ItemId: 'Keyword',
  Owner: 'Keyword',
  FileType: 'Keyword',
  JobType: 'Keyword',
};

interface Tool {
  binary: string;
  version: string;
}

const toolchain = JSON.parse(readFileSync(new URL('./toolchain.json', import.meta.url), 'utf8')) as Record<
  'temporal' | 'minio',
  Tool
>;

export function binaryPath(cacheDir: string, name: 'temporal' | 'minio'): string {
  const tool = toolchain[name];
  const path = join(cacheDir, 'bin', `${tool.binary}-${tool.version}`);
  if (!existsSync(path)) {
    throw new Error(
      `${name} is not built yet at ${path}: run \`node scripts/ensure-deps.mjs\` (npm start does).`,
    );
  }
  return path;
}

export interface RunningService {
  name: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface TemporalOptions {
  cacheDir: string;
  dataDir: string;
  host?: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** Where the server's own log goes; it is chatty, so not to our terminal. */
  logFile?: string;
}

export async function startTemporal(o: TemporalOptions): Promise<RunningService> {
  mkdirSync(o.dataDir, { recursive: true });
  const host = o.host ?? '127.0.0.1';
  const args = [
    'server',
    'start-dev',
    '--ip',
    host,
    '--port',
    String(o.port),
    '--ui-port',
    String(o.uiPort),
    '--namespace',
    o.namespace,
    '--db-filename',
    join(o.dataDir, 'temporal.db'),
    '--log-level',
    'warn',
  ];
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES))
    args.push('--search-attribute', `${name}=${type}`);
  const service = spawnService('temporal', binaryPath(o.cacheDir, 'temporal'), args, {}, o.logFile);
  await waitForPort(host, o.port, 60_000, service);
  return service;
}

export interface MinioOptions {
  cacheDir: string;
  dataDir: string;
  host?: string;
  port: number;
  consolePort: number;
  accessKey: string;
  secretKey: string;
  logFile?: string;
}

export async function startMinio(o: MinioOptions): Promise<RunningService> {
  mkdirSync(o.dataDir, { recursive: true });
  const host = o.host ?? '127.0.0.1';
  const args = [
    'server',
    o.dataDir,
    '--address',
    `${host}:${o.port}`,
    '--console-address',
    `${host}:${o.consolePort}`,
  ];
  const env = { MINIO_ROOT_USER: o.accessKey, MINIO_ROOT_PASSWORD: o.secretKey, MINIO_BROWSER: 'on' };
  const service = spawnService('minio', binaryPath(o.cacheDir, 'minio'), args, env, o.logFile);
  await waitForHttp(`http://${host}:${o.port}/minio/health/live`, 60_000, service);
  return service;
}

function spawnService(
  name: string,
  binary: string,
  args: string[],
  env: Record<string, string>,
  logFile?: string,
): RunningService {
  const child = spawn(binary, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const keep = (d: Buffer) => {
    log.push(d.toString());
    if (log.length > 200) log.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (logFile) {
    import('node:fs').then(({ createWriteStream }) => {
      const out = createWriteStream(logFile, { flags: 'a' });
      child.stdout?.pipe(out);
      child.stderr?.pipe(out);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    process: Object.assign(child, { recentLog: log }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function failIfExited(service: RunningService): void {
  const p = service.process;
  if (p.exitCode !== null || p.signalCode !== null) {
    const recent = ((p as unknown as { recentLog: string[] }).recentLog ?? []).join('').slice(-3000);
    throw new Error(`${service.name} exited during start (code ${p.exitCode}):\n${recent}`);
  }
}

export async function waitForPort(host: string, port: number, timeoutMs: number, service?: RunningService) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service) failIfExited(service);
    if (await portOpen(host, port)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${host}:${port}`);
}

async function waitForHttp(url: string, timeoutMs: number, service: RunningService) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    failIfExited(service);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${url}`);
}

export function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
