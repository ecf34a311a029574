/**
 * The app over a fixture's PGlite database, as the route tests build it: no Temporal, no locator (unless
 * one is given), an object store of the fixture's choosing (none by default), the clock stopped at `now`.
 * `close` closes the database and removes the fixture's directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { createApp } from '../../../api/app.js';
import type { AppDeps, AppEnv } from '../../../api/env.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { insertItem } from '../../../db/repositories/items.js';
import { insertService } from '../../../db/repositories/services.js';
import { insertUser } from '../../../db/repositories/users.js';
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

/**
 * A public hosted feature service's item and service rows, `name` owned by `owner` (an existing user),
 * stored in Web Mercator; its layers are the fixture's to add.
 */
export async function addHostedService(
  database: DatabaseHandle,
  service: { itemId: string; name: string; owner: string; now: number },
): Promise<void> {
  const { itemId, name, owner, now } = service;
  await insertItem(database.db, {
    id: itemId,
    owner,
    title: name,
    name,
    type: 'Feature Service',
    access: 'public',
    created: now,
    modified: now,
  });
  await insertService(database.db, {
    serviceItemId: itemId,
    name,
    owner,
    status: 'ready',
    definition: { spatialReference: { wkid: 102100, latestWkid: 3857 } },
    created: now,
    modified: now,
  });
}

/** A new PGlite database in a directory of its own, migrated, with one administrator, `owner`. */
export async function openFixtureDatabase(
  prefix: string,
  now: number,
): Promise<{ database: DatabaseHandle; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const database = await openDatabase({ pgliteDir: join(dir, 'db') });
  await database.migrate();
  await insertUser(database.db, {
    username: 'owner',
    role: 'org_admin',
    passwordHash: 'x',
    passwordChangedAt: now,
    created: now,
    modified: now,
  });
  return { database, dir };
}
