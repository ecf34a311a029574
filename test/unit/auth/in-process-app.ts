/**
 * The API in process over an embedded PGlite database, for tests that must choose where requests come from
 * and what time it is: requests carry a socket address as @hono/node-server passes it, and the clock is
 * the test's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../../api/app.js';
import type { AppDeps } from '../../../api/env.js';
import { ITEM_DELETION_HOOKS } from '../../../api/item-deletion-hooks.js';
import { openDatabase } from '../../../db/client.js';
import { insertUser } from '../../../db/repositories/users.js';
import { bootstrap } from '../../../infra/bootstrap.js';
import { loadConfig } from '../../../infra/config.js';
import { createLocatorService } from '../../../infra/locator-service.js';
import { createObjectStore } from '../../../infra/object-store.js';
import { createPasswordHasher } from '../../../infra/password-hasher.js';
import { hashPassword } from '../../../infra/secrets.js';
import { createServedTiles } from '../../../infra/served-tiles.js';

export const ADMIN = { username: 'portaladmin', password: 'Admin-Passw0rd-1' };
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {}, child: () => quiet };

export interface InProcessApp {
  deps: AppDeps;
  clock: { now: number };
  /** A form POST (or GET with a query) from `address`, answered as JSON. */
  call(
    path: string,
    params: Record<string, string>,
    options?: { from?: string; method?: 'GET' | 'POST'; headers?: Record<string, string> },
  ): Promise<{ status: number; json: Record<string, any>; headers: Headers }>;
  /** Adds a user with `password` straight to the database. */
  addUser(username: string, password: string, role?: string): Promise<void>;
  close(): Promise<void>;
}

export async function inProcessApp(env: Record<string, string> = {}): Promise<InProcessApp> {
  const dir = mkdtempSync(join(tmpdir(), 'geoportal-auth-'));
  const config = loadConfig({ DATA_DIR: dir, PORTAL_ADMIN_PASSWORD: ADMIN.password, ...env });
  const clock = { now: 1_800_000_000_000 };
  const now = () => clock.now;
  const database = await openDatabase({ pgliteDir: config.pgliteDir });
  const log = quiet as never;
  const identity = await bootstrap(database, config, log, now);
  const deps: AppDeps = {
    config,
    database,
    store: createObjectStore(config.minio),
    temporal: () => Promise.reject(new Error('no Temporal in this test')),
    log,
    now,
    portalId: identity.portalId,
    portalName: identity.portalName,
    locator: createLocatorService({ database, log, now }),
    passwords: createPasswordHasher(config.passwordHashing),
    tiles: createServedTiles(createObjectStore(config.minio), { maxTileBytes: 0 }),
    itemDeletionHooks: ITEM_DELETION_HOOKS,
  };
  const app = createApp(deps);
  return {
    deps,
    clock,
    async call(path, params, { from = '10.0.0.1', method = 'POST', headers = {} } = {}) {
      const url = new URL(`http://portal.test${path}`);
      const body = new URLSearchParams({ f: 'json', ...params });
      if (method === 'GET') for (const [k, v] of body) url.searchParams.set(k, v);
      const res = await app.request(
        url.href,
        {
          method,
          headers: {
            ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
            ...headers,
          },
          body: method === 'POST' ? body : undefined,
        },
        { incoming: { socket: { remoteAddress: from } } },
      );
      const text = await res.text();
      let json: Record<string, any> = {};
      try {
        json = JSON.parse(text);
      } catch {
        json = { text };
      }
      return { status: res.status, json, headers: res.headers };
    },
    async addUser(username, password, role = 'org_user') {
      const t = clock.now;
      await insertUser(database.db, {
        username,
        role,
        passwordHash: await hashPassword(password),
        passwordChangedAt: t,
        created: t,
        modified: t,
      });
    },
    async close() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
