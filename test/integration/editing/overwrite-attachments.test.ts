/**
 * Overwriting a service replaces its features (new object ids), so the old features' attachments go:
 * their rows with the swap, their files from the store.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { callMultipart, objectKeys } from '../portal/portal-helpers.js';
import { featureServer, uniqueName, waitForJob } from '../publish/publish-client.js';
import { adminToken, call, stack } from '../support/portal-client.js';

const V1 = 'Name,Latitude,Longitude\nA,41.9,-87.6\nB,41.8,-87.7\n';
const V2 = 'Name,Latitude,Longitude\nC,40.7,-74.0\n';

describe('overwriting a service whose features have attachments', () => {
  const name = uniqueName('overwrite_attachments');
  const owner = () => stack().admin.username;
  let token: string;
  let sourceId: string;
  let serviceItemId: string;

  const publish = async (overwrite: boolean) => {
    const analyzed = await call('/sharing/rest/content/features/analyze', {
      token,
      itemid: sourceId,
      filetype: 'csv',
    });
    const p = analyzed.json.publishParameters;
    const editable = { capabilities: 'Query,Editing', hasAttachments: true };
    const res = await call(`/sharing/rest/content/users/${owner()}/publish`, {
      token,
      itemid: sourceId,
      filetype: 'csv',
      ...(overwrite ? { overwrite: 'true' } : {}),
      publishParameters: JSON.stringify({
        ...p,
        ...editable,
        name,
        layerInfo: { ...p.layerInfo, ...editable },
      }),
    });
    const service = res.json.services?.[0];
    if (!service) throw new Error(`publish failed: ${res.text}`);
    expect((await waitForJob(token, owner(), service.serviceItemId, service.jobId)).status).toBe('completed');
    return service;
  };

  beforeAll(async () => {
    token = await adminToken();
    const added = await call(`/sharing/rest/content/users/${owner()}/addItem`, {
      token,
      type: 'CSV',
      title: 'Piers',
      text: V1,
    });
    sourceId = added.json.id;
    serviceItemId = (await publish(false)).serviceItemId;
    const add = await callMultipart(
      `${featureServer(name)}/0/1/addAttachment`,
      { token },
      { field: 'attachment', name: 'a.txt', bytes: Buffer.from('about A'), type: 'text/plain' },
    );
    expect(add.json.addAttachmentResult).toMatchObject({ success: true });
    expect(await objectKeys(`items/${serviceItemId}/attachments/`)).toHaveLength(1);
    await call(`/sharing/rest/content/users/${owner()}/items/${sourceId}/update`, { token, text: V2 });
    await publish(true);
  }, 240_000);

  it('removes the old attachments: none listed, none stored', async () => {
    const list = await call(`${featureServer(name)}/0/1/attachments`, { token }, { method: 'GET' });
    expect(list.json.attachmentInfos).toEqual([]);
    const query = await call(`${featureServer(name)}/0/query`, { token, where: '1=1', outFields: 'Name' });
    expect(query.json.features.map((f: any) => f.attributes.Name)).toEqual(['C']);
    expect(await objectKeys(`items/${serviceItemId}/attachments/`)).toEqual([]);
  });
});
