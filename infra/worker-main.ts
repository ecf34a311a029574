/**
 * The worker entry for production: reads configuration, opens the database and object storage, and polls
 * the task queue until SIGINT or SIGTERM. Run as many as the load needs against one namespace and database.
 */
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { openRuntime } from './runtime.js';
import { connectClient, createWorker, ensureSearchAttributes, installTemporalRuntime } from './temporal.js';

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError([
      'DATABASE_URL: required when the worker runs as its own process (PGlite is in-process only)',
    ]);
  }
  const log = createLogger(config.logLevel, { component: 'worker' });
  const runtime = await openRuntime(config, log);
  installTemporalRuntime(log);
  await ensureSearchAttributes(await connectClient(config.temporal), config.temporal.namespace, log);
  const worker = await createWorker({ config, deps: runtime, log });
  const stop = () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  log.info('worker polling', { taskQueue: config.temporal.taskQueue, address: config.temporal.address });
  await worker.run();
  await runtime.close();
  log.info('worker stopped');
}

main().catch((e) => {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
});
