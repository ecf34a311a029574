import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { sevenZipOf } from '../../fixtures/ingest/seven-zip.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { fetchTile, tilesFixture } from '../tiles/tile-client.js';
import { featureServer, fixture, uniqueName, upload, waitForJob } from './publish-client.js';

/** A .sd (7-Zip archive) of the given files, written to a temporary path. */
async function serviceDefinition(files: Record<string, Uint8Array>): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'sd-')), 'service.sd');
  writeFileSync(path, await sevenZipOf(files));
  return path;
}

const info = new TextEncoder().encode('<ESRI_ItemInformation/>');

async function publishSd(token: string, path: string, name: string) {
  const owner = stack().admin.username;
  const res = await upload(
    `/sharing/rest/content/users/${owner}/publish`,
    { token, filetype: 'serviceDefinition', publishParameters: JSON.stringify({ name }) },
    { name: 'service.sd', path },
  );
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  return { service, status: await waitForJob(token, owner, service.serviceItemId, service.jobId) };
}

describe('service definitions', () => {
  let token: string;
  beforeAll(async () => {
    token = await signIn();
  });

  it('one carrying a file geodatabase publishes a feature service of its classes', async () => {
    const gdb = unzipSync(readFileSync(fixture('file-geodatabase/towns.gdb.zip')));
    const files: Record<string, Uint8Array> = { 'esriinfo/iteminfo.xml': info };
    for (const [path, bytes] of Object.entries(gdb)) if (!path.endsWith('/')) files[`v101/${path}`] = bytes;
    const name = uniqueName('towns_sd');
    const { service, status } = await publishSd(token, await serviceDefinition(files), name);
    expect(service.type).toBe('Feature Service');
    expect(status.status).toBe('completed');
    const info_ = (await call(featureServer(name), { token }, { method: 'GET' })).json;
    const all = [...info_.layers, ...info_.tables];
    expect(all.map((l: any) => l.name).sort()).toEqual(['inspections', 'parcels', 'places', 'roads']);
    const places = all.find((l: any) => l.name === 'places').id;
    const res = (
      await call(`${featureServer(name)}/${places}/query`, {
        token,
        where: 'rank >= 2',
        outFields: 'name',
        orderByFields: 'name',
      })
    ).json;
    expect(res.features.map((f: any) => f.attributes.name)).toEqual(['London', 'Paris']);
  }, 120_000);

  it('one carrying a tile cache publishes a tiled Map Service serving its tiles', async () => {
    const tpkx = unzipSync(readFileSync(tilesFixture('red.tpkx')));
    const files: Record<string, Uint8Array> = { 'esriinfo/iteminfo.xml': info };
    for (const [path, bytes] of Object.entries(tpkx)) files[`v101/red/${path}`] = bytes;
    const name = uniqueName('red_sd');
    const { service, status } = await publishSd(token, await serviceDefinition(files), name);
    expect(service.type).toBe('Map Service');
    expect(status.status).toBe('completed');
    const res = await fetchTile(name, 1, 1, 1);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(tpkx['tile/L01/R0000C0000.bundle']).indexOf(Buffer.from(bytes))).toBeGreaterThan(0);

    // The same file as a Service Definition item: its header is read by range from the object store.
    const owner = stack().admin.username;
    const added = await upload(
      `/sharing/rest/content/users/${owner}/addItem`,
      { token, type: 'Service Definition', title: 'Red tiles' },
      { name: 'red.sd', path: await serviceDefinition(files) },
    );
    if (!added.id) throw new Error(`addItem failed: ${JSON.stringify(added)}`);
    const fromItem = uniqueName('red_sd_item');
    const published = await call(`/sharing/rest/content/users/${owner}/publish`, {
      token,
      itemid: added.id,
      filetype: 'serviceDefinition',
      publishParameters: JSON.stringify({ name: fromItem }),
    });
    const item = published.json.services[0];
    expect(item.type).toBe('Map Service');
    expect((await waitForJob(token, owner, item.serviceItemId, item.jobId)).status).toBe('completed');
    const again = new Uint8Array(await (await fetchTile(fromItem, 1, 1, 1)).arrayBuffer());
    expect(Buffer.from(again)).toEqual(Buffer.from(bytes));
  }, 120_000);

  it('one carrying neither is refused, naming what it holds', async () => {
    const path = await serviceDefinition({
      'esriinfo/iteminfo.xml': info,
      'v101/towns.msd': new TextEncoder().encode('<msd/>'),
    });
    const res = await upload(
      `/sharing/rest/content/users/${stack().admin.username}/publish`,
      {
        token,
        filetype: 'serviceDefinition',
        publishParameters: JSON.stringify({ name: uniqueName('none_sd') }),
      },
      { name: 'service.sd', path },
    );
    expect(res.error.code).toBe(400);
    expect(res.error.details[0]).toBe(
      'The service definition carries neither a tile cache nor a file geodatabase; it holds 2 files (.xml, .msd).',
    );
  });

  it('a file that is not 7-Zip is refused by analyze', async () => {
    const res = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'serviceDefinition' },
      { name: 'service.sd', path: fixture('chicago-libraries.csv') },
    );
    expect(res.error.code).toBe(400);
    expect(res.error.details).toEqual(['The file is not a service definition (no 7-Zip signature).']);
  });
});
