/**
 * Re-publishing a source item with overwrite=true: the service keeps its name, item id and URL while
 * its data, fields and tiles change; a bad file leaves the data it had; an item never published is
 * refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { decodePng, fetchTile, pixelOf, publishTiles } from '../tiles/tile-client.js';
import { featureServer, uniqueName, waitForJob } from './publish-client.js';

const V1 = 'Name,Latitude,Longitude,Kind\nA,41.9,-87.6,1\nB,41.8,-87.7,2\n';
const V2 = 'Name,Latitude,Longitude,Score\nC,40.7,-74.0,9.5\n';
const BAD = 'Name,Latitude,Longitude\nX,north,west\n';

describe('overwriting a hosted feature service from its source item', () => {
  const name = uniqueName('overwritten');
  const tiles = uniqueName('overwritten_tiles');
  const owner = () => stack().admin.username;
  let token: string;
  let sourceId: string;
  let first: Record<string, any>;
  let second: Record<string, any>;
  let secondStatus: Record<string, any>;

  const updateSource = async (text: string) => {
    const res = await call(`/sharing/rest/content/users/${owner()}/items/${sourceId}/update`, {
      token,
      text,
    });
    expect(res.json.success).toBe(true);
  };
  let lastParameters: Record<string, unknown> = {};
  const publish = async (overwrite: boolean, reuseParameters = false) => {
    if (!reuseParameters) {
      const analyzed = await call('/sharing/rest/content/features/analyze', {
        token,
        itemid: sourceId,
        filetype: 'csv',
      });
      lastParameters = analyzed.json.publishParameters;
    }
    const res = await call(`/sharing/rest/content/users/${owner()}/publish`, {
      token,
      itemid: sourceId,
      filetype: 'csv',
      ...(overwrite ? { overwrite: 'true' } : {}),
      publishParameters: JSON.stringify({ ...lastParameters, name }),
    });
    return res.json;
  };
  const count = async () =>
    (await call(`${featureServer(name)}/0/query`, { token, where: '1=1', returnCountOnly: 'true' })).json
      .count;

  beforeAll(async () => {
    token = await signIn();
    const added = await call(`/sharing/rest/content/users/${owner()}/addItem`, {
      token,
      type: 'CSV',
      title: 'Places',
      text: V1,
    });
    sourceId = added.json.id;
    first = (await publish(false)).services[0];
    expect((await waitForJob(token, owner(), first.serviceItemId, first.jobId)).status).toBe('completed');
    const built = await publishTiles(token, first.serviceItemId, { name: tiles, levels: '9-9' });
    expect(built.status.status).toBe('completed');
    await updateSource(V2);
    second = (await publish(true)).services?.[0];
    if (!second) throw new Error('overwrite refused');
    secondStatus = await waitForJob(token, owner(), second.serviceItemId, second.jobId);
  }, 300_000);

  it('keeps the item id and URL of the service', () => {
    expect(secondStatus.status).toBe('completed');
    expect(second.serviceItemId).toBe(first.serviceItemId);
    expect(second.serviceurl).toBe(first.serviceurl);
  });

  it('answers queries from the new data, with the new fields in the layer', async () => {
    expect(await count()).toBe(1);
    const layer = (await call(`${featureServer(name)}/0`, { token }, { method: 'GET' })).json;
    const fields = layer.fields.map((f: any) => f.name);
    expect(fields).toContain('Score');
    expect(fields).not.toContain('Kind');
    const rows = await call(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      outFields: 'Name,Score',
    });
    expect(rows.json.features[0].attributes).toMatchObject({ Name: 'C', Score: 9.5 });
  });

  it('rebuilds the caches drawn from the service: the new place is drawn, the old one gone', async () => {
    const at = pixelOf(-74.0, 40.7, 9);
    const old = pixelOf(-87.6, 41.9, 9).tile;
    let res = await fetchTile(tiles, 9, at.tile.row, at.tile.col);
    // Up to 90 s: the rebuild runs on the suite's shared worker, beside other files' loads and kills
    // (once the new tile had not appeared after 30 s there); a rebuild that never ran fails all the same.
    for (let i = 0; i < 300 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 300));
      res = await fetchTile(tiles, 9, at.tile.row, at.tile.col);
    }
    expect(res.status).toBe(200);
    expect((await decodePng(await res.arrayBuffer()))(at.px, at.py)[3]).toBeGreaterThan(0);
    let gone = await fetchTile(tiles, 9, old.row, old.col);
    for (let i = 0; i < 30 && gone.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 300));
      gone = await fetchTile(tiles, 9, old.row, old.col);
    }
    expect(gone.status).toBe(404);
  });

  it('leaves the data as it was when the new file has no usable row', async () => {
    await updateSource(BAD);
    // The coordinates columns the service was published with, now holding no usable value.
    const failed = (await publish(true, true)).services[0];
    const status = await waitForJob(token, owner(), failed.serviceItemId, failed.jobId);
    expect(status.status).toBe('failed');
    expect(await count()).toBe(1);
    const rows = await call(`${featureServer(name)}/0/query`, { token, where: '1=1', outFields: 'Name' });
    expect(rows.json.features[0].attributes.Name).toBe('C');
    const item = await call(
      `/sharing/rest/content/items/${first.serviceItemId}`,
      { token },
      { method: 'GET' },
    );
    expect(item.json.id).toBe(first.serviceItemId);
  });

  it('refuses to overwrite from an item nothing was published from', async () => {
    const added = await call(`/sharing/rest/content/users/${owner()}/addItem`, {
      token,
      type: 'CSV',
      title: 'Never published',
      text: V2,
    });
    const res = await call(`/sharing/rest/content/users/${owner()}/publish`, {
      token,
      itemid: added.json.id,
      filetype: 'csv',
      overwrite: 'true',
      publishParameters: JSON.stringify({ name: uniqueName('never') }),
    });
    expect(res.json.error.code).toBe(400);
    expect(res.json.error.details[0]).toContain('No service was published from item');
  });
});
