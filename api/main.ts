/**
 * The API entry for production: serves HTTP; publish jobs reach the workers through Temporal. With
 * API_PROCESSES above 1 the primary prepares the database once (migrations, first administrator) and
 * forks that many servers sharing the port, one per core: Node answers requests on one thread.
 */
import cluster from 'node:cluster';
import { sql } from 'drizzle-orm';
import { type Config, ConfigError, loadConfig } from '../infra/config.js';
import { createLogger, type Logger } from '../infra/logger.js';
import { appDeps, openRuntime } from '../infra/runtime.js';
import { serverExecArgv } from '../infra/server-heap.js';
import { carryTileMemory } from '../infra/tile-memory-record.js';
import { serveApp } from './http-server.js';

/** Connections of the API's pool each server opens before it listens. */
const WARM_CONNECTIONS = 2;

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError([
      'DATABASE_URL: required when the API runs as its own process (PGlite is in-process only)',
    ]);
  }
  const log = createLogger(config.logLevel, { component: 'api' });
  if (config.apiProcesses > 1 && cluster.isPrimary) return supervise(config, log);
  const runtime = await openRuntime(config, log);
  if (runtime.identity.generatedAdminPassword) {
    console.log(
      `First administrator ${config.admin.username} created with password ${runtime.identity.generatedAdminPassword}`,
    );
  }
  // postgres.js connects on first use: without this, a fresh server's first requests (a map view's
  // tiles by the dozen) each wait for a connection to be made and its types read, 60-90 ms under load.
  await Promise.all(Array.from({ length: WARM_CONNECTIONS }, () => runtime.apiDatabase.rows(sql`select 1`)));
  const deps = appDeps(runtime);
  // The tiles this process's predecessors held, read before it listens (infra/tile-memory-record.ts).
  const tileMemory = await carryTileMemory(runtime, deps.tiles.reader);
  const server = serveApp(deps, { port: config.port, hostname: config.host });
  if (cluster.isPrimary) {
    log.info('api listening', { host: config.host, port: config.port, basePath: config.basePath });
  }
  const stop = () => {
    void tileMemory.stop().then(() => server.close(() => runtime.close().then(() => process.exit(0))));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Forks the servers, replaces one that dies, and stops them all on SIGINT / SIGTERM. */
async function supervise(config: Config, log: Logger) {
  const runtime = await openRuntime(config, log);
  if (runtime.identity.generatedAdminPassword) {
    console.log(
      `First administrator ${config.admin.username} created with password ${runtime.identity.generatedAdminPassword}`,
    );
  }
  await runtime.close();
  let stopping = false;
  let listening = 0;
  // The servers run with the serving V8 flags however the primary was started (infra/server-heap.ts).
  cluster.setupPrimary({ execArgv: serverExecArgv(process.execArgv) });
  cluster.on('listening', () => {
    // Said once, when every server takes connections.
    if (++listening !== config.apiProcesses) return;
    log.info('api listening', {
      host: config.host,
      port: config.port,
      basePath: config.basePath,
      processes: config.apiProcesses,
    });
  });
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      log.warn('api process exited; starting another', { pid: worker.process.pid, code, signal });
      cluster.fork();
    } else if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
  for (let i = 0; i < config.apiProcesses; i++) cluster.fork();
  const stop = () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const w of workers) w?.process.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
});
