/**
 * The product's app in this process, over its own embedded PGlite database and the stack's real MinIO
 * and Temporal, called through app.request() without a socket: route behaviour checked on a real
 * database, quickly. Jobs it starts go to a task queue no worker polls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { createApp } from '../../../api/app.js';
import type { AppEnv } from '../../../api/env.js';
import { loadConfig } from '../../../infra/config.js';
import { createLogger } from '../../../infra/logger.js';
import { appDeps, openRuntime } from '../../../infra/runtime.js';
import { stack } from './portal-client.js';

export interface InProcessApp {
  app: Hono<AppEnv>;
  admin: { username: string; password: string };
  /** POSTs (or GETs) form parameters and returns the status with the JSON body, if any. */
  call(
    path: string,
    params?: Record<string, string>,
    method?: 'GET' | 'POST',
  ): Promise<{ status: number; json: Record<string, any>; text: string }>;
  /** Makes a user with the role (through createUser as the administrator) and signs them in. */
  user(role: string): Promise<{ username: string; token: string }>;
  signIn(username: string, password: string): Promise<string>;
  close(): Promise<void>;
}

const PASSWORD = 'Str0ng-Passw0rd-Long-Enough!xyz';
/** Tokens are bound to this referer, which every request sends (app.request has no client address). */
const REFERER = 'https://matrix.test';

export async function inProcessApp(): Promise<InProcessApp> {
  const dir = mkdtempSync(join(tmpdir(), 'geoportal-app-'));
  const s = stack();
  const admin = { username: 'matrixadmin', password: PASSWORD };
  const config = loadConfig({
    DATA_DIR: dir,
    MINIO_ENDPOINT: s.minio.endpoint,
    MINIO_ACCESS_KEY: s.minio.accessKey,
    MINIO_SECRET_KEY: s.minio.secretKey,
    MINIO_BUCKET: s.minio.bucket,
    TEMPORAL_ADDRESS: s.temporalAddress,
    TEMPORAL_TASK_QUEUE: 'in-process-app-unpolled',
    PORTAL_ADMIN_USERNAME: admin.username,
    PORTAL_ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: 'error',
  });
  const runtime = await openRuntime(config, createLogger('error'));
  const app = createApp(appDeps(runtime));

  const call: InProcessApp['call'] = async (path, params = {}, method = 'POST') => {
    const body = new URLSearchParams({ f: 'json', ...params });
    const res =
      method === 'GET'
        ? await app.request(`${path}?${body}`, { method, headers: { referer: `${REFERER}/` } })
        : await app.request(path, {
            method,
            body,
            headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${REFERER}/` },
          });
    const text = await res.text();
    let json: Record<string, any> = {};
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON (tiles, SOAP); callers look at the text
    }
    return { status: res.status, json, text };
  };
  const signIn = async (username: string, password: string) => {
    const res = await call('/sharing/rest/generateToken', {
      username,
      password,
      expiration: '60',
      client: 'referer',
      referer: REFERER,
    });
    if (!res.json.token) throw new Error(`sign-in failed: ${res.text}`);
    return res.json.token as string;
  };
  const adminToken = await signIn(admin.username, admin.password);
  let made = 0;
  const user = async (role: string) => {
    const username = `m${role.replace(/[^a-z]/g, '')}${++made}${Date.now() % 100000}`.slice(0, 24);
    const res = await call('/portaladmin/security/users/createUser', {
      token: adminToken,
      username,
      password: PASSWORD,
      email: `${username}@example.com`,
      firstname: 'Matrix',
      lastname: 'User',
      role,
    });
    if (res.json.status !== 'success') throw new Error(`createUser failed: ${res.text}`);
    return { username, token: await signIn(username, PASSWORD) };
  };
  return {
    app,
    admin,
    call,
    user,
    signIn,
    async close() {
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
