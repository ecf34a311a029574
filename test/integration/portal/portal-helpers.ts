/** Shared steps of the portal tests: accounts, items and direct looks at PostgreSQL and MinIO. */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import postgres from 'postgres';
import { minioClient } from '../support/minio-client.js';
import { call, signIn, stack } from '../support/portal-client.js';

/** Satisfies every policy the tests set: 31 characters, upper, lower, digits and others. */
export const STRONG_PASSWORD = 'Str0ng-Passw0rd-Long-Enough!xyz';

export const unique = (prefix: string) => `${prefix}${randomBytes(4).toString('hex')}`;

export const fixture = (name: string) => join(import.meta.dirname, '..', '..', 'fixtures', 'portal', name);
export const fixtureBytes = (name: string) => readFileSync(fixture(name));

let adminToken: string | undefined;
export async function admin(): Promise<string> {
  adminToken ??= await signIn();
  return adminToken;
}

export interface TestUser {
  username: string;
  password: string;
  token: string;
}

/** A new account made through createUser, signed in. */
export async function newUser(role = 'org_user', password = STRONG_PASSWORD): Promise<TestUser> {
  const username = unique('user');
  const res = await call('/portaladmin/security/users/createUser', {
    token: await admin(),
    username,
    password,
    email: `${username}@example.com`,
    firstname: 'Test',
    lastname: 'User',
    role,
  });
  if (res.json.status !== 'success') throw new Error(`createUser failed: ${res.text}`);
  return { username, password, token: await signIn(username, password) };
}

/** POST multipart/form-data the way browsers and rest-js send files. */
export async function callMultipart(
  path: string,
  fields: Record<string, string>,
  file?: { field?: string; name: string; bytes: Uint8Array; type?: string },
) {
  const form = new FormData();
  form.set('f', 'json');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set(file.field ?? 'file', new Blob([file.bytes], { type: file.type ?? '' }), file.name);
  const res = await fetch(`${stack().baseUrl}${path}`, { method: 'POST', body: form });
  const text = await res.text();
  let json: Record<string, any> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // callers assert on text
  }
  return { status: res.status, json, text };
}

export async function addTextItem(user: TestUser, fields: Record<string, string> = {}): Promise<string> {
  const res = await call(`/sharing/rest/content/users/${user.username}/addItem`, {
    token: user.token,
    type: 'Web Map',
    title: unique('map '),
    text: '{"operationalLayers":[]}',
    ...fields,
  });
  if (!res.json.success) throw new Error(`addItem failed: ${res.text}`);
  return res.json.id as string;
}

export async function withDatabase<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(stack().databaseUrl, { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

export async function objectKeys(prefix: string): Promise<string[]> {
  const { bucket } = stack().minio;
  const client = minioClient();
  const keys: string[] = [];
  for await (const obj of client.listObjectsV2(bucket, prefix, true)) if (obj.name) keys.push(obj.name);
  return keys;
}

/** A new account signed in through rest-js's identity manager, as an application signs in. */
export async function restJsUser(role = 'org_publisher') {
  const user = await newUser(role);
  const portal = `${stack().baseUrl}/sharing/rest`;
  const authentication = await ArcGISIdentityManager.signIn({
    username: user.username,
    password: user.password,
    portal,
  });
  return { user, authentication, portal };
}

/** The error body of a rest-js call that must fail (it throws when the call succeeds). */
export async function restJsRefusal(
  call: Promise<unknown>,
): Promise<{ code: number; message: string; details: string[] }> {
  try {
    await call;
  } catch (e) {
    const body = (e as { response?: { error?: { code: number; message: string; details: string[] } } })
      .response;
    if (body?.error) return body.error;
    throw e;
  }
  throw new Error('the call succeeded');
}
