/**
 * The app over a fixture's PGlite database, as the route tests build it: no Temporal, no locator (unless
 * one is given), an object store of the fixture's choosing (none by default), the clock stopped at `now`.
 * `close` closes the database and removes the fixture's directory.
 */
import { rmSync } from 'node:fs';
import type { Hono } from 'hono';
import { createApp } from '../../../api/app.js';
import type { AppDeps, AppEnv } from '../../../api/env.js';
import type { DatabaseHandle } from '../../../db/client.js';
import { loadConfig } from '../../../infra/config.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import { createServedTiles } from '../../../infra/served-tiles.js';
import type { Locator } from '../../../lib/geocode/locator.js';

export interface FixtureApp {
  app: Hono<AppEnv>;
  close(): Promise<void>;
}

export function fixtureApp(
  database: DatabaseHandle,
  dir: string,
  options: { now: number; store?: ObjectStore; locator?: Locator },
): FixtureApp {
  const store = options.store ?? ({} as ObjectStore);
  const { locator } = options;
  const deps = {
    config: loadConfig({ DATA_DIR: dir }),
    database,
    store,
    tiles: createServedTiles(store, { maxTileBytes: 0 }),
    itemDeletionHooks: [],
    temporal: () => Promise.reject(new Error('no Temporal in route tests')),
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    now: () => options.now,
    portalId: '0123456789ABCDEF',
    portalName: 'Test portal',
    locator: () =>
      locator ? Promise.resolve(locator) : Promise.reject(new Error('no locator in route tests')),
  } as unknown as AppDeps;
  return {
    app: createApp(deps),
    close: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
