/**
 * `npm start`: the whole product on one machine. Starts (or reuses) a Temporal dev server with its UI and a
 * MinIO server, opens the database (embedded PGlite unless DATABASE_URL is set), runs the API and a worker
 * in this process, proves the stack with the self-check workflow and prints the URLs. Ctrl-C stops it all.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serveApp } from '../api/http-server.js';
import { ConfigError, loadConfig } from './config.js';
import { portOpen, type RunningService, startMinio, startTemporal } from './embedded-services.js';
import { createLogger } from './logger.js';
import { appDeps, logsDir, openRuntime } from './runtime.js';
import { runSelfCheck } from './self-check.js';
import { createWorker, ensureSearchAttributes, installTemporalRuntime } from './temporal.js';
import { carryTileMemory } from './tile-memory-record.js';

/** Whether the server at `origin` answers MinIO's liveness check, so a port taken by another program is not used as MinIO. */
async function isMinio(origin: string): Promise<boolean> {
  try {
    const res = await fetch(`${origin}/minio/health/live`, { signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    return res.ok && (res.headers.get('server') ?? '').toLowerCase().includes('minio');
  } catch {
    return false;
  }
}

async function main() {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const services: RunningService[] = [];
  const say = (msg: string) => console.log(`[geoportal] ${msg}`);
  mkdirSync(logsDir(config), { recursive: true });

  const [temporalHost, temporalPort] = config.temporal.address.split(':') as [string, string];
  const minioHost = config.minio.endpoint.hostname;
  const minioPort = Number(config.minio.endpoint.port || 80);
  if (config.embeddedServices) {
    // A program on MinIO's port that is not MinIO is refused before anything is started.
    const minioRunning = await portOpen(minioHost, minioPort);
    if (minioRunning && !(await isMinio(config.minio.endpoint.origin))) {
      throw new ConfigError([
        `MINIO_ENDPOINT: ${config.minio.endpoint.host} is taken by a program that is not MinIO; set MINIO_ENDPOINT to a free port or stop that program`,
      ]);
    }
    if (await portOpen(temporalHost, Number(temporalPort))) {
      say(`reusing the Temporal server already listening on ${config.temporal.address}`);
    } else {
      say(
        `starting the Temporal dev server on ${config.temporal.address} (UI on port ${config.temporal.uiPort}) ...`,
      );
      services.push(
        await startTemporal({
          cacheDir: config.cacheDir,
          dataDir: join(config.dataDir, 'temporal'),
          host: temporalHost,
          port: Number(temporalPort),
          uiPort: config.temporal.uiPort,
          namespace: config.temporal.namespace,
          logFile: join(logsDir(config), 'temporal.log'),
        }),
      );
    }
    if (minioRunning) {
      say(`reusing the MinIO server already listening on ${config.minio.endpoint.host}`);
    } else {
      say(
        `starting MinIO on ${config.minio.endpoint.host} (console on port ${config.minio.consolePort}) ...`,
      );
      services.push(
        await startMinio({
          cacheDir: config.cacheDir,
          dataDir: join(config.dataDir, 'minio'),
          host: minioHost,
          port: minioPort,
          consolePort: config.minio.consolePort,
          accessKey: config.minio.accessKey,
          secretKey: config.minio.secretKey,
          logFile: join(logsDir(config), 'minio.log'),
        }),
      );
    }
  }

  say(
    config.databaseUrl
      ? 'connecting to PostgreSQL ...'
      : `opening the embedded database in ${config.pgliteDir} ...`,
  );
  const runtime = await openRuntime(config, log);
  installTemporalRuntime(log);
  const deps = appDeps(runtime);
  await ensureSearchAttributes(await deps.temporal(), config.temporal.namespace, log);

  say('starting the worker ...');
  const worker = await createWorker({ config, deps: runtime, log });
  const workerDone = worker.run();

  // The tiles the product held when it last stopped, read before it listens (infra/tile-memory-record.ts).
  const tileMemory = await carryTileMemory(runtime, deps.tiles.reader);
  const server = serveApp(deps, { port: config.port, hostname: config.host });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));

  const check = await runSelfCheck(await deps.temporal(), config, runtime, () =>
    say(
      `the self-check is still waiting for the worker (busy resuming interrupted jobs?); the API already answers on port ${config.port}`,
    ),
  );
  const root = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}${config.basePath}`;
  say(`self-check passed: workflow ${check.workflowId} wrote ${check.objectKey} and a database row`);
  console.log(`
  Geoportal is running.
    Portal REST      ${root}/sharing/rest
    REST services    ${root}/rest/services
    SOAP services    ${root}/services
    Temporal UI      http://${temporalHost}:${config.temporal.uiPort}
    MinIO            ${config.minio.endpoint.origin} (console http://${minioHost}:${config.minio.consolePort})
    Database         ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.pgliteDir}`}
    Administrator    ${config.admin.username}${
      runtime.identity.generatedAdminPassword
        ? `, password ${runtime.identity.generatedAdminPassword} (shown once; set PORTAL_ADMIN_PASSWORD to choose it)`
        : ''
    }
  Press Ctrl-C to stop.
`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say('stopping ...');
    await tileMemory.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await workerDone.catch((e) => log.error('worker stopped with an error', { err: e }));
    await runtime.close();
    for (const s of services.reverse()) await s.stop();
    say('stopped.');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  if (e instanceof ConfigError) console.error(e.message);
  else console.error('[geoportal] failed to start:', e);
  process.exit(1);
});
