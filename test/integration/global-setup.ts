/**
 * Starts the real servers once per test run: a Temporal dev server, a MinIO server, a fresh PostgreSQL
 * database, and the product itself (API + worker, as `npm start` runs them) against those servers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../infra/config.js';
import { type RunningService, startMinio, startTemporal } from '../../infra/embedded-services.js';
import { freePort } from './support/ports.js';
import { createTestDatabase } from './support/postgres.js';
import type { StackInfo } from './support/stack-info.js';

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'geoportal-it-'));
  const { cacheDir } = loadConfig({});
  const services: RunningService[] = [];
  const [temporalPort, uiPort, minioPort, consolePort, apiPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const minio = { accessKey: 'geoportal-test', secretKey: 'geoportal-test-secret', bucket: 'geoportal-test' };
  const database = await createTestDatabase();
  let product: ChildProcess | undefined;
  const teardown = async () => {
    const started = Date.now();
    if (product && product.exitCode === null) {
      const exited = new Promise((r) => product?.once('exit', r));
      product.kill('SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000).unref())]);
      product.kill('SIGKILL');
    }
    for (const s of services.reverse()) await s.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
    console.log(`[global-setup] stopped the stack in ${Date.now() - started} ms`);
  };

  try {
    const [temporal, minioServer] = await Promise.all([
      startTemporal({
        cacheDir,
        dataDir: join(dir, 'temporal'),
        port: temporalPort,
        uiPort,
        namespace: 'default',
      }),
      startMinio({ cacheDir, dataDir: join(dir, 'minio'), port: minioPort, consolePort, ...minio }),
    ]);
    services.push(temporal, minioServer);

    const stack: StackInfo = {
      baseUrl: `http://127.0.0.1:${apiPort}`,
      databaseUrl: database.url,
      temporalAddress: `127.0.0.1:${temporalPort}`,
      temporalUiPort: uiPort,
      taskQueue: 'geoportal-test',
      minio: { endpoint: `http://127.0.0.1:${minioPort}`, ...minio },
      admin: { username: 'portaladmin', password: 'Admin-Passw0rd!' },
      dataDir: join(dir, 'product'),
      cacheDir,
    };
    product = await startProduct(stack, apiPort);
    project.provide('stack', stack);
  } catch (e) {
    await teardown();
    throw e;
  }
  return teardown;
}

/** Runs the launcher as a user would, with the embedded services switched off in favour of ours. */
function startProduct(stack: StackInfo, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/launcher.ts'], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: {
      ...process.env,
      EMBEDDED_SERVICES: 'false',
      PORT: String(port),
      DATA_DIR: stack.dataDir,
      DATABASE_URL: stack.databaseUrl,
      TEMPORAL_ADDRESS: stack.temporalAddress,
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
      MINIO_ENDPOINT: stack.minio.endpoint,
      MINIO_ACCESS_KEY: stack.minio.accessKey,
      MINIO_SECRET_KEY: stack.minio.secretKey,
      MINIO_BUCKET: stack.minio.bucket,
      PORTAL_ADMIN_USERNAME: stack.admin.username,
      PORTAL_ADMIN_PASSWORD: stack.admin.password,
      UPLOAD_MAX_BYTES: String(50 * 1024 * 1024),
      // Every test signs in from 127.0.0.1, and many check wrong passwords on purpose: the per-address
      // limit would lock the whole suite out. Per-name limits stay as shipped (test/integration/portal/sign-in.test.ts).
      SIGN_IN_ADDRESS_FAILURES: '100000',
      // Long enough that a burst of guesses on a busy machine all arrive while the first lock holds.
      SIGN_IN_DELAY_SECONDS: '30',
      // The stand-in GeocodeServers the geocode tests start listen here; nothing else is allowed.
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      // Delimited files of a few thousand rows load into tables in parts (250,000 rows a part as
      // shipped), so the suite's queries, edits, tiles and overwrites meet both shapes of table.
      FEATURE_TABLE_PART_ROWS: '2000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the product did not start in time:\n${output}`)),
      240_000,
    );
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Geoportal is running.')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
      process.stderr.write(d);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the product exited with code ${code} during start:\n${output}`));
    });
  });
}
