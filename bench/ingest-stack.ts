/**
 * The product as the ingest benchmark runs it: a Temporal dev server and MinIO from the cached
 * binaries, a fresh PostgreSQL database (or, with `adminUrl` null, the embedded PGlite one as
 * `npm start` has it), and the API and a worker in this process (so the process's memory is the
 * product's memory).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { Client } from '@temporalio/client';
import postgres from 'postgres';
import { createApp } from '../api/app.js';
import { loadConfig } from '../infra/config.js';
import { type RunningService, startMinio, startTemporal } from '../infra/embedded-services.js';
import { createLogger } from '../infra/logger.js';
import { appDeps, openRuntime } from '../infra/runtime.js';
import { createWorker, ensureSearchAttributes, installTemporalRuntime } from '../infra/temporal.js';
import { freePort } from '../test/integration/support/ports.js';

export interface BenchStack {
  baseUrl: string;
  /** The PostgreSQL database's URL; empty on the embedded PGlite database. */
  databaseUrl: string;
  admin: { username: string; password: string };
  temporal: Client;
  /** The product's environment, for starting more processes against the same stack. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

let runtimeInstalled = false;

const ADMIN = { username: 'benchadmin', password: 'Bench-Passw0rd!' };

/** Temporal, MinIO and the database, without the product: what its processes are started against. */
export interface BackingServices {
  /** The product's environment for these services (API port, data directory, addresses, admin). */
  env: Record<string, string>;
  databaseUrl: URL | null;
  admin: { username: string; password: string };
  stop(): Promise<void>;
}

export async function startBackingServices(dir: string, adminUrl: string | null): Promise<BackingServices> {
  const [temporalPort, uiPort, minioPort, consolePort, apiPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const dbName = `bench_ingest_${Date.now()}`;
  let databaseUrl: URL | null = null;
  if (adminUrl) {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    await admin.end();
    databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${dbName}`;
  }

  const { cacheDir } = loadConfig({});
  const minio = { accessKey: 'bench-ingest', secretKey: 'bench-ingest-secret' };
  const services: RunningService[] = await Promise.all([
    startTemporal({
      cacheDir,
      dataDir: join(dir, 'temporal'),
      port: temporalPort,
      uiPort,
      namespace: 'default',
    }),
    startMinio({ cacheDir, dataDir: join(dir, 'minio'), port: minioPort, consolePort, ...minio }),
  ]);
  mkdirSync(join(dir, 'product'), { recursive: true });
  const env = {
    PORT: String(apiPort),
    DATA_DIR: join(dir, 'product'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl.toString() } : {}),
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    TEMPORAL_TASK_QUEUE: 'bench-ingest',
    MINIO_ENDPOINT: `http://127.0.0.1:${minioPort}`,
    MINIO_ACCESS_KEY: minio.accessKey,
    MINIO_SECRET_KEY: minio.secretKey,
    MINIO_BUCKET: 'bench-ingest',
    PORTAL_ADMIN_USERNAME: ADMIN.username,
    PORTAL_ADMIN_PASSWORD: ADMIN.password,
    UPLOAD_MAX_BYTES: String(4 * 1024 ** 3),
    EMBEDDED_SERVICES: 'false',
    LOG_LEVEL: 'error',
    // An A/B of the drawing threads: `TILE_DRAW_THREADS=0 npx tsx bench/tile-bench.ts …`.
    ...(process.env.TILE_DRAW_THREADS ? { TILE_DRAW_THREADS: process.env.TILE_DRAW_THREADS } : {}),
    // And of loading into parts: `FEATURE_TABLE_PART_ROWS=1000000000 npx tsx bench/ingest.ts …` loads one table.
    ...(process.env.FEATURE_TABLE_PART_ROWS
      ? { FEATURE_TABLE_PART_ROWS: process.env.FEATURE_TABLE_PART_ROWS }
      : {}),
  };
  return {
    env,
    databaseUrl,
    admin: ADMIN,
    async stop() {
      for (const s of services.reverse()) await s.stop();
      if (!adminUrl) return;
      const drop = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await drop.unsafe(`drop database if exists ${dbName} with (force)`);
      await drop.end();
    },
  };
}

export async function startBenchStack(dir: string, adminUrl: string | null): Promise<BenchStack> {
  const backing = await startBackingServices(dir, adminUrl);
  const { env, databaseUrl } = backing;
  const apiPort = Number(env.PORT);
  const config = loadConfig(env);
  const log = createLogger(config.logLevel);
  const runtime = await openRuntime(config, log);
  // The SDK's runtime is one per process; a bench that starts a second stack reuses it.
  if (!runtimeInstalled) installTemporalRuntime(log);
  runtimeInstalled = true;
  const deps = appDeps(runtime);
  await ensureSearchAttributes(await deps.temporal(), config.temporal.namespace, log);
  const worker = await createWorker({ config, deps: runtime, log });
  const running = worker.run();
  const server = serve({ fetch: createApp(deps).fetch, port: apiPort, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));

  return {
    baseUrl: `http://127.0.0.1:${apiPort}`,
    databaseUrl: databaseUrl?.toString() ?? '',
    admin: ADMIN,
    temporal: await deps.temporal(),
    env,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      worker.shutdown();
      await running.catch(() => {});
      await runtime.close();
      await backing.stop();
    },
  };
}
