import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { portOpen } from '../../infra/embedded-services.js';
import { freePort } from './support/ports.js';

const root = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'geoportal-launcher-'));
let running: ChildProcess | undefined;

afterAll(() => {
  if (running && running.exitCode === null) running.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function launch(env: Record<string, string>): Promise<{ child: ChildProcess; banner: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/launcher.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = child;
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes('Press Ctrl-C to stop.')) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`launcher exited with ${code}:\n${out}`));
    });
  });
  return { child, banner: out };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  return exited;
}

async function signIn(port: number, password: string): Promise<Record<string, any>> {
  const res = await fetch(`http://127.0.0.1:${port}/sharing/rest/generateToken`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'portaladmin', password, f: 'json' }),
  });
  return (await res.json()) as Record<string, any>;
}

/** Free ports for the API, Temporal, its UI, MinIO and its console, and the launcher's settings for them. */
async function launchPorts() {
  const [port, temporalPort, uiPort, minioPort, consolePort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const env = {
    PORT: String(port),
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    TEMPORAL_UI_PORT: String(uiPort),
    MINIO_ENDPOINT: `http://127.0.0.1:${minioPort}`,
    MINIO_CONSOLE_PORT: String(consolePort),
    DATABASE_URL: '',
  };
  return { env, port, temporalPort, uiPort, minioPort };
}

describe('npm start (the embedded launcher)', () => {
  it('brings up Temporal with its UI, MinIO, PGlite, the API and a worker; stops cleanly; keeps data', {
    timeout: 400_000,
  }, async () => {
    const { env: ports, port, temporalPort, uiPort, minioPort } = await launchPorts();
    const env = { ...ports, DATA_DIR: dataDir, PORTAL_ADMIN_PASSWORD: '' };
    const first = await launch(env);
    expect(first.banner).toContain('self-check passed');
    expect(first.banner).toContain(`Temporal UI      http://127.0.0.1:${uiPort}`);
    expect(first.banner).toContain(`PGlite in ${join(dataDir, 'pglite')}`);
    const password = /password (\S+) \(shown once/.exec(first.banner)?.[1];
    expect(password).toBeDefined();
    expect((await fetch(`http://127.0.0.1:${uiPort}/`)).status).toBe(200);
    const portal = (await (
      await fetch(`http://127.0.0.1:${port}/sharing/rest/portals/self?f=json`)
    ).json()) as {
      id: string;
    };
    expect((await signIn(port, password!)).token).toBeDefined();

    expect(await stop(first.child)).toBe(0);
    expect(await portOpen('127.0.0.1', port)).toBe(false);
    expect(await portOpen('127.0.0.1', temporalPort)).toBe(false);
    expect(await portOpen('127.0.0.1', minioPort)).toBe(false);

    const second = await launch(env);
    expect(second.banner).not.toContain('shown once');
    const again = (await (
      await fetch(`http://127.0.0.1:${port}/sharing/rest/portals/self?f=json`)
    ).json()) as {
      id: string;
    };
    expect(again.id).toBe(portal.id);
    expect((await signIn(port, password!)).token).toBeDefined();
    expect(await stop(second.child)).toBe(0);
  });

  it('refuses a MinIO port taken by another program, before starting anything, and says so', {
    timeout: 60_000,
  }, async () => {
    const { env, temporalPort, minioPort } = await launchPorts();
    const takenDir = mkdtempSync(join(tmpdir(), 'geoportal-launcher-taken-'));
    const squatter = createServer((_req, res) => res.end('not object storage'));
    await new Promise<void>((r) => squatter.listen(minioPort, '127.0.0.1', r));
    try {
      const failed = await launch({ ...env, DATA_DIR: takenDir }).then(
        () => '',
        (e: Error) => e.message,
      );
      expect(failed).toContain('launcher exited with 1');
      expect(failed).toContain(`127.0.0.1:${minioPort} is taken by a program that is not MinIO`);
      expect(failed).not.toContain('starting the Temporal dev server');
      expect(await portOpen('127.0.0.1', temporalPort)).toBe(false);
    } finally {
      squatter.close();
      rmSync(takenDir, { recursive: true, force: true });
    }
  });
});
