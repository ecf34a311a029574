/** Test support: the production entry points (api/main.ts, infra/worker-main.ts) as child processes on the test stack. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { stack } from './portal-client.js';

const root = join(import.meta.dirname, '..', '..', '..');

/** The environment of a product process on the test stack, with `extra` over it. */
export function productEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const s = stack();
  return {
    ...process.env,
    DATABASE_URL: s.databaseUrl,
    TEMPORAL_ADDRESS: s.temporalAddress,
    MINIO_ENDPOINT: s.minio.endpoint,
    MINIO_ACCESS_KEY: s.minio.accessKey,
    MINIO_SECRET_KEY: s.minio.secretKey,
    MINIO_BUCKET: s.minio.bucket,
    PORTAL_ADMIN_USERNAME: s.admin.username,
    PORTAL_ADMIN_PASSWORD: s.admin.password,
    DATA_DIR: s.dataDir,
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Starts `entry` (a path from the repository's root) under tsx; `output` is what it wrote so far. */
export function startProcess(
  entry: string,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (d) => {
    text += d;
  });
  child.stderr?.on('data', (d) => {
    text += d;
  });
  return { child, output: () => text };
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Waits until an API process on `port` answers the portal's info, or fails after about 30 s. */
export async function untilAnswering(port: number): Promise<Record<string, any>> {
  for (let i = 0; i < 150; i++) {
    const info = await fetch(`http://127.0.0.1:${port}/sharing/rest/info?f=json`)
      .then((r) => r.json() as Promise<Record<string, any>>)
      .catch(() => undefined);
    if (info) return info;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no API answering on port ${port}`);
}
