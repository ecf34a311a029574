/** Opens what every entry point shares: the database (migrated and bootstrapped) and object storage. */
import { join } from 'node:path';
import type { AppDeps } from '../api/env.js';
import { ITEM_DELETION_HOOKS } from '../api/item-deletion-hooks.js';
import { type DatabaseHandle, openDatabase } from '../db/client.js';
import { limitQueryCost } from '../db/repositories/query-cost.js';
import { bootstrap, type PortalIdentity } from './bootstrap.js';
import type { Config } from './config.js';
import { createLocatorService, type LocatorSource } from './locator-service.js';
import type { Logger } from './logger.js';
import { createObjectStore, type ObjectStore } from './object-store.js';
import { createPasswordHasher } from './password-hasher.js';
import { createServedTiles } from './served-tiles.js';
import { connectClient } from './temporal.js';

export interface Runtime {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  /**
   * The API's sessions: with PostgreSQL a pool of its own under STATEMENT_TIMEOUT_SECONDS (postgres.js
   * connects on first use, so a worker process never opens it); with the in-process PGlite, its one
   * connection, shared with the worker's long loads and so without the timeout (PGlite ignores it
   * anyway): feature queries are priced by the planner instead and refused above QUERY_MAX_COST.
   */
  apiDatabase: DatabaseHandle;
  store: ObjectStore;
  identity: PortalIdentity;
  now: () => number;
  /** The embedded locator, built on first use and shared by the API and the activities of this process. */
  locator: LocatorSource;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, log: Logger): Promise<Runtime> {
  const now = () => Date.now();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir });
  try {
    const identity = await bootstrap(database, config, log, now);
    const store = createObjectStore(config.minio);
    await store.ensureBucket();
    const locator = createLocatorService({ database, log, now });
    const apiDatabase = config.databaseUrl
      ? await openDatabase({
          databaseUrl: config.databaseUrl,
          statementTimeoutMs: config.statementTimeoutMs,
        })
      : database;
    if (!config.databaseUrl) limitQueryCost(database, config.queryMaxCost);
    const close = async () => {
      if (apiDatabase !== database) await apiDatabase.close();
      await database.close();
    };
    return { config, log, database, apiDatabase, store, identity, now, locator, close };
  } catch (e) {
    await database.close();
    throw e;
  }
}

/** The API's dependencies; the Temporal client connects on first use so the API starts without Temporal. */
export function appDeps(runtime: Runtime): AppDeps {
  let client: ReturnType<typeof connectClient> | undefined;
  return {
    config: runtime.config,
    database: runtime.apiDatabase,
    store: runtime.store,
    log: runtime.log,
    now: runtime.now,
    portalId: runtime.identity.portalId,
    portalName: runtime.identity.portalName,
    locator: runtime.locator,
    itemDeletionHooks: ITEM_DELETION_HOOKS,
    tiles: createServedTiles(runtime.store, { maxTileBytes: runtime.config.tileMemoryCacheBytes }),
    passwords: createPasswordHasher(runtime.config.passwordHashing),
    temporal: () => {
      client ??= connectClient(runtime.config.temporal).catch((e) => {
        client = undefined;
        throw e;
      });
      return client;
    },
  };
}

export const logsDir = (config: Config) => join(config.dataDir, 'logs');
