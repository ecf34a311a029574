/** The tile benchmark's client side: sign in, publish the points, publish the tile service and time it. */
import { readFileSync } from 'node:fs';
import type { BenchStack } from './ingest-stack.js';

async function post(stack: BenchStack, path: string, fields: Record<string, string>, file?: string) {
  const form = new FormData();
  form.set('f', 'json');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('file', new Blob([readFileSync(file)]), 'pts.geojson');
  const res = await fetch(`${stack.baseUrl}${path}`, { method: 'POST', body: form });
  return (await res.json()) as Record<string, any>;
}

export async function signInAs(stack: BenchStack): Promise<string> {
  const res = await post(stack, '/sharing/rest/generateToken', {
    username: stack.admin.username,
    password: stack.admin.password,
    client: 'requestip',
    expiration: '60',
  });
  return res.token as string;
}

async function waitFor(stack: BenchStack, token: string, itemId: string, jobId: string) {
  const owner = stack.admin.username;
  for (;;) {
    const url = `${stack.baseUrl}/sharing/rest/content/users/${owner}/items/${itemId}/status?f=json&token=${token}&jobId=${jobId}`;
    const status = (await (await fetch(url)).json()) as Record<string, any>;
    if (status.status === 'completed') return status;
    if (status.status === 'failed') throw new Error(`job failed: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Publishes the points, then a cached Map Service of them; returns the cache's tile count and build time. */
export async function publishAndCache(stack: BenchStack, token: string, file: string, levels: string) {
  const owner = stack.admin.username;
  const stamp = Date.now().toString(36);
  const features = await post(
    stack,
    `/sharing/rest/content/users/${owner}/publish`,
    { token, filetype: 'geojson', publishParameters: JSON.stringify({ name: `bench_pts_${stamp}` }) },
    file,
  );
  const f = features.services[0];
  await waitFor(stack, token, f.serviceItemId, f.jobId);
  const name = `bench_tiles_${stamp}`;
  const started = performance.now();
  const tiles = await post(stack, `/sharing/rest/content/users/${owner}/publish`, {
    token,
    itemid: f.serviceItemId,
    filetype: 'featureService',
    outputType: 'Tiles',
    buildInitialCache: 'true',
    publishParameters: JSON.stringify({ name, levels }),
  });
  const t = tiles.services[0];
  const status = await waitFor(stack, token, t.serviceItemId, t.jobId);
  return {
    name,
    serviceItemId: t.serviceItemId as string,
    tiles: Number(status.tilesDone),
    cacheSeconds: (performance.now() - started) / 1000,
  };
}

/** Shares an item with everyone, as a public basemap is (anonymous map clients, public caching). */
export async function shareWithEveryone(stack: BenchStack, token: string, itemId: string) {
  const owner = stack.admin.username;
  const res = await post(stack, `/sharing/rest/content/users/${owner}/items/${itemId}/share`, {
    token,
    everyone: 'true',
  });
  if (res.itemId !== itemId) throw new Error(`share failed: ${JSON.stringify(res)}`);
}
