import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createItem,
  getItem,
  getItemData,
  getItemStatus,
  getRelatedItems,
  getUserContent,
} from '@esri/arcgis-rest-portal';
import { type ArcGISIdentityManager, request } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../support/portal-client.js';
import { restJsRefusal, restJsUser, type TestUser, unique } from './portal-helpers.js';

// addItem's relationship and async parameters, as rest-js's createItem passes them through.
describe('addItem with a relationship or async, through @esri/arcgis-rest-portal', () => {
  let user: TestUser;
  let authentication: ArcGISIdentityManager;
  let portal: string;
  const itemIds = async () => (await getUserContent({ authentication })).items.map((i) => i.id).sort();
  const serviceItem = () => ({
    title: unique('Service '),
    type: 'Feature Service',
    url: `${stack().baseUrl}/rest/services/x/FeatureServer`,
  });
  const refusal = (params: Record<string, string>) =>
    restJsRefusal(
      request(`${portal}/content/users/${user.username}/addItem`, {
        params: { ...serviceItem(), ...params },
        authentication,
      }),
    );

  beforeAll(async () => {
    ({ user, authentication, portal } = await restJsUser());
  });

  it('relates the new item to an origin or a destination in the same call', async () => {
    const map = await createItem({
      item: { title: unique('Map '), type: 'Web Map' },
      text: '{"operationalLayers":[]}',
      authentication,
    });
    // originItemId: the new item is the destination.
    const service = await createItem({
      item: serviceItem(),
      params: { originItemId: map.id, relationshipType: 'Map2Service' },
      authentication,
    });
    const forward = await getRelatedItems({
      id: map.id,
      relationshipType: 'Map2Service',
      direction: 'forward',
      authentication,
    });
    expect(forward.relatedItems.map((r) => r.id)).toEqual([service.id]);
    // destinationItemId: the new item is the origin.
    const second = await createItem({
      item: { title: unique('Map '), type: 'Web Map' },
      text: '{}',
      params: { destinationItemId: service.id, relationshipType: 'Map2Service' },
      authentication,
    });
    const reverse = await getRelatedItems({
      id: service.id,
      relationshipType: 'Map2Service',
      direction: 'reverse',
      authentication,
    });
    expect(reverse.relatedItems.map((r) => r.id).sort()).toEqual([map.id, second.id].sort());
  });

  it('adds no item when its relationship cannot be made, or is asked for wrongly', async () => {
    const before = await itemIds();
    const missing = await refusal({ originItemId: 'f'.repeat(32), relationshipType: 'Map2Service' });
    expect(missing.code).toBeGreaterThanOrEqual(400);
    const map = await createItem({
      item: { title: unique('Map '), type: 'Web Map' },
      text: '{}',
      authentication,
    });
    // Map2Service joins a map to a service: a service cannot be its origin.
    const wrongWay = await refusal({ destinationItemId: map.id, relationshipType: 'Map2Service' });
    expect(wrongWay.code).toBe(400);
    const both = await refusal({
      originItemId: map.id,
      destinationItemId: map.id,
      relationshipType: 'Map2Service',
    });
    expect(both.details).toEqual(["Give either 'originItemId' or 'destinationItemId', not both."]);
    const noType = await refusal({ originItemId: map.id });
    expect(noType.code).toBe(400);
    expect(await itemIds()).toEqual([...before, map.id].sort());
  });

  it('answers async=true with the item added, and a completed status', async () => {
    const added = await createItem({
      item: { title: unique('Async '), type: 'Web Map' },
      text: '{}',
      async: true,
      authentication,
    } as Parameters<typeof createItem>[0]);
    expect(added.success).toBe(true);
    expect(await getItemStatus({ id: added.id, owner: user.username, authentication })).toMatchObject({
      status: 'completed',
      itemId: added.id,
    });
    expect((await refusal({ async: 'sometimes' })).details).toEqual(["'async' must be true or false."]);
  });

  it('downloads the file of a dataUrl from an allowed host into the item data', async () => {
    const csv = 'name,lat,lon\nOslo,59.91,10.75\n';
    const server = createServer((req, res) => {
      if (req.url === '/files/places%20list.csv') res.writeHead(200, { 'content-type': 'text/csv' }).end(csv);
      else res.writeHead(404).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const added = await createItem({
        item: { title: unique('Downloaded '), type: 'CSV' },
        dataUrl: `${base}/files/places%20list.csv`,
        authentication,
      } as Parameters<typeof createItem>[0]);
      expect(await getItem(added.id, { authentication })).toMatchObject({
        name: 'places list.csv',
        size: Buffer.byteLength(csv),
      });
      const data = (await getItemData(added.id, { authentication, file: true })) as Blob;
      expect(await data.text()).toBe(csv);
      const missing = await refusal({ dataUrl: `${base}/files/gone.csv` });
      expect(missing).toMatchObject({ code: 400, message: 'The file could not be downloaded.' });
      const elsewhere = await refusal({ dataUrl: 'http://169.254.169.254/latest/meta-data/' });
      expect(elsewhere).toMatchObject({ code: 400, message: 'The URL is not allowed.' });
      const both = await refusal({ dataUrl: `${base}/files/places%20list.csv`, text: 'x' });
      expect(both.details).toEqual(["Send one of 'file', 'text' and 'dataUrl'."]);
    } finally {
      server.close();
    }
  });

  it("overwrites the folder's item of the same file name with overwrite=true, and refuses the name without it", async () => {
    const file = (text: string) => new Blob([text], { type: 'text/csv' });
    const first = await createItem({
      item: { title: unique('First '), type: 'CSV' },
      file: file('a,b\n1,2\n'),
      params: { fileName: 'same.csv' },
      authentication,
    });
    const taken = await restJsRefusal(
      createItem({
        item: { title: unique('Second '), type: 'CSV' },
        file: file('a,b\n3,4\n'),
        params: { fileName: 'same.csv' },
        authentication,
      }),
    );
    expect(taken.code).toBe(409);
    const title = unique('Overwritten ');
    const second = await createItem({
      item: { title, type: 'CSV' },
      file: file('a,b\n5,6\n7,8\n'),
      params: { fileName: 'SAME.csv' },
      overwrite: true,
      authentication,
    } as Parameters<typeof createItem>[0]);
    expect(second.id).toBe(first.id);
    expect(await getItem(first.id, { authentication })).toMatchObject({ title, name: 'SAME.csv', size: 12 });
    const data = (await getItemData(first.id, { authentication, file: true })) as Blob;
    expect(await data.text()).toBe('a,b\n5,6\n7,8\n');
  });
});
