import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, stack } from '../support/portal-client.js';

/** Helpers for the publish tests: multipart uploads, publishing and waiting for the job. */
export const fixture = (name: string) => join(import.meta.dirname, '..', '..', 'fixtures', 'publish', name);

export async function upload(
  path: string,
  fields: Record<string, string>,
  file?: { name: string; path: string },
): Promise<Record<string, any>> {
  const form = new FormData();
  form.set('f', 'json');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('file', new Blob([readFileSync(file.path)]), file.name);
  const res = await fetch(`${stack().baseUrl}${path}`, { method: 'POST', body: form });
  return (await res.json()) as Record<string, any>;
}

export async function waitForJob(
  token: string,
  owner: string,
  itemId: string,
  jobId: string,
  timeoutMs = 90_000,
): Promise<Record<string, any>> {
  const started = Date.now();
  for (;;) {
    const res = await call(
      `/sharing/rest/content/users/${owner}/items/${itemId}/status`,
      { token, jobId, jobType: 'publish' },
      { method: 'GET' },
    );
    if (res.json.status === 'completed' || res.json.status === 'failed') return res.json;
    if (Date.now() - started > timeoutMs)
      throw new Error(`job ${jobId} still ${res.text} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Publishes a file and waits for the job; returns the services entry and the final status. */
export async function publishFile(
  token: string,
  fileName: string,
  filetype: string,
  publishParameters: Record<string, unknown>,
  extra: Record<string, string> = {},
) {
  const owner = stack().admin.username;
  const res = await upload(
    `/sharing/rest/content/users/${owner}/publish`,
    { token, filetype, publishParameters: JSON.stringify(publishParameters), ...extra },
    { name: fileName, path: fixture(fileName) },
  );
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
  return { service, status };
}

export const featureServer = (name: string) => `/rest/services/Hosted/${name}/FeatureServer`;

export const uniqueName = (base: string) =>
  `${base}_${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
