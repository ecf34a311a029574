/** The Temporal client and worker factories, shared by the API, the worker entry and the launcher. */
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { type ActivityDeps, createActivities } from '../activities/index.js';
import { prestartLoadThreads } from '../activities/publish/load-layer.js';
import { prestartDrawingThreads } from '../activities/tiles/render-threads.js';
import type { Config } from './config.js';
import { SEARCH_ATTRIBUTES } from './embedded-services.js';
import type { Logger } from './logger.js';
import { createOutboundFetch } from './outbound-fetch.js';
import { keepUploadsForThisProcess } from './readers/sqlite-spool.js';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export async function connectClient(config: Config['temporal']): Promise<Client> {
  const connection = await Connection.connect({ address: config.address });
  return new Client({ connection, namespace: config.namespace });
}

/**
 * Registers the search attributes the publish jobs carry. The dev server gets them as start flags; a full
 * server (docker-compose) gets them here, once; "already exists" is success.
 */
export async function ensureSearchAttributes(client: Client, namespace: string, log: Logger): Promise<void> {
  const wanted = Object.fromEntries(
    Object.keys(SEARCH_ATTRIBUTES).map((name) => [name, 2 /* INDEXED_VALUE_TYPE_KEYWORD */]),
  );
  try {
    await client.connection.operatorService.addSearchAttributes({ namespace, searchAttributes: wanted });
  } catch (e) {
    const message = String((e as Error).message);
    if (!/already exists|AlreadyExists/i.test(message))
      log.warn('could not register search attributes', { message });
  }
}

export interface WorkerOptions {
  config: Config;
  deps: ActivityDeps;
  log: Logger;
}

export async function createWorker({ config, deps }: WorkerOptions): Promise<Worker> {
  // Planning in this process may take a GeoPackage upload's own file (infra/readers/sqlite-spool.ts).
  keepUploadsForThisProcess();
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowsPath,
    activities: createActivities({
      parseLimits: config.parseLimits,
      partRows: config.featureTablePartRows,
      maxTiles: config.tileBuildMaxTiles,
      drawThreads: config.tileDrawThreads,
      outbound: createOutboundFetch(config.outbound),
      ...deps,
    }),
    maxConcurrentActivityTaskExecutions: config.workerActivityConcurrency,
    bundlerOptions: { ignoreModules: [] },
  });
  // The first CSV load finds its thread started, once the worker's own start is past.
  prestartLoadThreads(deps.database.kind, PRESTART_DELAY_MS);
  // And the first tile cache build its drawing threads, a second later (they start one after another).
  prestartDrawingThreads(config.tileDrawThreads, PRESTART_DELAY_MS + 1000);
  return worker;
}

/** How long after the worker is made its first loading thread is started. */
const PRESTART_DELAY_MS = 2000;

/** Routes the SDK's own log lines (warnings and worse) into our logger instead of the console. */
export function installTemporalRuntime(log: Logger): void {
  Runtime.install({
    // The launcher and the worker entry stop the worker themselves, in order, on SIGINT and SIGTERM.
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', (entry) => {
      const fields = { ...entry.meta, sdk: true };
      if (entry.level === 'ERROR') log.error(entry.message, fields);
      else log.warn(entry.message, fields);
    }),
  });
}
