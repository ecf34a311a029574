import postgres from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, fixture, uniqueName, upload, waitForJob } from './publish-client.js';

describe('publishing an added item, and deleting the service item', () => {
  let token: string;
  let owner: string;
  let sourceId: string;
  let serviceItemId: string;
  let name: string;

  beforeAll(async () => {
    token = await signIn();
    owner = stack().admin.username;
    const added = await upload(
      `/sharing/rest/content/users/${owner}/addItem`,
      { token, type: 'CSV', title: 'Library branches', tags: 'libraries' },
      { name: `libraries-${Date.now()}.csv`, path: fixture('chicago-libraries.csv') },
    );
    if (!added.id) throw new Error(`addItem failed: ${JSON.stringify(added)}`);
    sourceId = added.id;
    const analyzed = await call('/sharing/rest/content/features/analyze', {
      token,
      itemid: sourceId,
      filetype: 'csv',
    });
    name = uniqueName('from_item');
    const published = await call(`/sharing/rest/content/users/${owner}/publish`, {
      token,
      itemid: sourceId,
      filetype: 'csv',
      publishParameters: JSON.stringify({ ...analyzed.json.publishParameters, name }),
    });
    serviceItemId = published.json.services[0].serviceItemId;
    const status = await waitForJob(token, owner, serviceItemId, published.json.services[0].jobId);
    expect(status.status).toBe('completed');
  });

  it('relates the Feature Service item to its source by Service2Data', async () => {
    const res = await call(
      `/sharing/rest/content/items/${serviceItemId}/relatedItems`,
      { token, relationshipType: 'Service2Data', direction: 'forward' },
      { method: 'GET' },
    );
    expect(res.json.relatedItems.map((i: any) => i.id)).toEqual([sourceId]);
  });

  it('gives the service item its URL and a WGS84 extent', async () => {
    const res = await call(`/sharing/rest/content/items/${serviceItemId}`, { token }, { method: 'GET' });
    expect(res.json.type).toBe('Feature Service');
    expect(res.json.url).toBe(`${stack().baseUrl}${featureServer(name)}`);
    expect(res.json.extent[0][0]).toBeCloseTo(-87.76572, 4);
  });

  it('deleting the service item removes the service and drops its feature table', async () => {
    const deleted = await call(`/sharing/rest/content/users/${owner}/items/${serviceItemId}/delete`, {
      token,
    });
    expect(deleted.json.success).toBe(true);
    const layer = await call(`${featureServer(name)}/0`, { token }, { method: 'GET' });
    expect(layer.json.error.code).toBe(400);
    const sql = postgres(stack().databaseUrl, { max: 1 });
    const [row] = await sql`select to_regclass(${`f_${serviceItemId}_0`})::text as t`;
    await sql.end();
    expect(row.t).toBeNull();
  });
});
