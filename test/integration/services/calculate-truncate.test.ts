import { beforeAll, describe, expect, it } from 'vitest';
import { EDITABLE, type EditableService, edit, features, publishStations } from '../editing/edit-client.js';
import { newUser } from '../portal/portal-helpers.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { followJob } from './job-client.js';

// stations.csv: 1 North Pier (pier, Depth 4.5, Visits 120), 2 Lock Station (lock, 7.25, 80),
// 3 South Buoy (buoy, 12, 15). Expected values are worked out by hand from those rows.
describe('calculate', () => {
  let token: string;
  let svc: EditableService;
  const calculate = (params: Record<string, unknown>) => edit(`${svc.layer}/calculate`, token, params);
  const column = async (name: string) => (await features(svc, token)).map((f) => f.attributes[name]);

  beforeAll(async () => {
    token = await signIn();
    svc = await publishStations(token, { ...EDITABLE, editorTrackingInfo: { enableEditorTracking: true } });
  }, 120_000);

  it('sets a field to a value on the features the where clause selects', async () => {
    const res = await calculate({
      where: "Kind = 'pier'",
      calcExpression: [{ field: 'Visits', value: 500 }],
    });
    expect(res).toEqual({ success: true, updatedFeatureCount: 1 });
    expect(await column('Visits')).toEqual([500, 80, 15]);
  });

  it('evaluates SQL expressions over each feature, and keeps Editor and EditDate', async () => {
    const before = Date.now() - 1000;
    const res = await calculate({
      where: 'Depth > 5',
      calcExpression: [
        { field: 'Depth', sqlExpression: 'Depth * 2 + 1' },
        { field: 'Name', sqlExpression: "CONCAT(UPPER(Name), '!')" },
      ],
    });
    expect(res).toEqual({ success: true, updatedFeatureCount: 2 });
    expect(await column('Depth')).toEqual([4.5, 15.5, 25]);
    expect(await column('Name')).toEqual(['North Pier', 'LOCK STATION!', 'SOUTH BUOY!']);
    const rows = await features(svc, token, 'OBJECTID IN (2, 3)');
    for (const r of rows) {
      expect(r.attributes.Editor).toBe(stack().admin.username);
      expect(r.attributes.EditDate).toBeGreaterThanOrEqual(before);
    }
    const layer = (await call(svc.layer, { token }, { method: 'GET' })).json;
    expect(layer.editingInfo.lastEditDate).toBeGreaterThanOrEqual(before);
  });

  it('without a where clause calculates every feature', async () => {
    const res = await calculate({ calcExpression: [{ field: 'Kind', value: null }] });
    expect(res).toEqual({ success: true, updatedFeatureCount: 3 });
    expect(await column('Kind')).toEqual([null, null, null]);
  });

  it('refuses bad expressions with a 400 naming calcExpression, and changes nothing', async () => {
    const refused = async (calcExpression: unknown, where?: string) => {
      const res = await calculate({ calcExpression, ...(where ? { where } : {}) });
      expect(res.error?.code).toBe(400);
      return (res.error.details as string[]).join(' ');
    };
    expect(await refused([{ field: 'Visits', sqlExpression: 'Name' }])).toMatch(/Visits.*string/);
    expect(await refused([{ field: 'Nope', value: 1 }])).toMatch(/'Nope' is not a field/);
    expect(await refused([{ field: 'OBJECTID', value: 9 }])).toMatch(/OBJECTID/);
    expect(await refused([{ field: 'Editor', value: 'me' }])).toMatch(/maintained by the server/);
    expect(await refused([{ field: 'Visits', value: 1.5 }])).toMatch(/not an integer/);
    expect(await refused([{ field: 'Visits', value: 1, sqlExpression: '2' }])).toMatch(/exactly one/);
    expect(await refused([{ field: 'Visits', value: 1 }], 'Nope = 1')).toMatch(/where/);
    // 80 × 10^10 overflows an integer column: the database refuses, the answer is a 400.
    expect(await refused([{ field: 'Visits', sqlExpression: 'Visits * 10000000000' }])).toMatch(
      /could not be done/,
    );
    expect(await column('Visits')).toEqual([500, 80, 15]);
  });

  it('async=true answers a statusUrl whose job reports the calculation', async () => {
    const res = await calculate({
      where: 'Visits < 100',
      calcExpression: [{ field: 'Visits', value: 1 }],
      async: 'true',
    });
    expect(res.statusUrl).toMatch(/\/FeatureServer\/jobs\/[0-9a-f]{32}$/);
    const job = await followJob(res.statusUrl, token);
    expect([job.status, job.operation, job.success, job.updatedFeatureCount]).toEqual([
      'Completed',
      'calculate',
      true,
      2,
    ]);
    expect(await column('Visits')).toEqual([500, 1, 1]);
    const bad = await calculate({
      calcExpression: [{ field: 'Visits', sqlExpression: 'Visits * 10000000000' }],
      async: 'true',
    });
    const failed = await followJob(bad.statusUrl, token);
    expect([failed.status, failed.error.code]).toEqual(['Failed', 400]);
    expect(await column('Visits')).toEqual([500, 1, 1]);
  });
});

describe('who may calculate', () => {
  let token: string;
  let svc: EditableService;

  beforeAll(async () => {
    token = await signIn();
    // A read-only layer, shared with the organization.
    svc = await publishStations(token, { capabilities: 'Query' });
    const shared = await call(
      `/sharing/rest/content/users/${stack().admin.username}/items/${svc.serviceItemId}/share`,
      { token, org: 'true' },
    );
    expect(shared.json.error).toBeUndefined();
  }, 120_000);

  it('the owner calculates a layer without the Update capability, as on ArcGIS', async () => {
    const res = await edit(`${svc.layer}/calculate`, token, {
      where: 'OBJECTID = 2',
      calcExpression: [{ field: 'Visits', value: 81 }],
    });
    expect(res).toEqual({ success: true, updatedFeatureCount: 1 });
    expect((await features(svc, token)).map((f) => f.attributes.Visits)).toEqual([120, 81, 15]);
  });

  it('another user who may read it may not', async () => {
    const other = await newUser('org_user');
    expect((await features(svc, other.token)).length).toBe(3);
    const res = await edit(`${svc.layer}/calculate`, other.token, {
      calcExpression: [{ field: 'Visits', value: 0 }],
    });
    expect(res.error.message).toBe('Requested operation is not supported by this service.');
    expect((await features(svc, token)).map((f) => f.attributes.Visits)).toEqual([120, 81, 15]);
  });
});

describe('truncate', () => {
  let token: string;
  let svc: EditableService;
  let truncate: string;

  beforeAll(async () => {
    token = await signIn();
    svc = await publishStations(token, EDITABLE);
    truncate = `/rest/admin/services/Hosted/${svc.name}/FeatureServer/0/truncate`;
  }, 120_000);

  it('attachmentOnly removes the attachments and keeps the features', async () => {
    const form = new FormData();
    form.set('f', 'json');
    form.set('token', token);
    form.set('attachment', new Blob([new Uint8Array([1, 2, 3])]), 'a.bin');
    const res = await fetch(`${stack().baseUrl}${svc.layer}/1/addAttachment`, { method: 'POST', body: form });
    const added = (await res.json()) as { addAttachmentResult: { success: boolean } };
    expect(added.addAttachmentResult.success).toBe(true);
    expect(await edit(truncate, token, { attachmentOnly: 'true' })).toEqual({ success: true });
    const listed = await call(`${svc.layer}/1/attachments`, { token }, { method: 'GET' });
    expect(listed.json.attachmentInfos).toEqual([]);
    expect((await features(svc, token)).length).toBe(3);
  });

  it('removes every feature, resets the count and extent, and starts object ids at 1 again', async () => {
    expect(await edit(truncate, token, {})).toEqual({ success: true });
    expect(await features(svc, token)).toEqual([]);
    const count = await call(`${svc.layer}/query`, { token, where: '1=1', returnCountOnly: 'true' });
    expect(count.json.count).toBe(0);
    const layer = (await call(svc.layer, { token }, { method: 'GET' })).json;
    expect(layer.extent.xmin).toBe('NaN');
    const added = await edit(`${svc.layer}/addFeatures`, token, {
      features: [{ attributes: { Name: 'Fresh' }, geometry: { x: -9750000, y: 5140000 } }],
    });
    expect(added.addResults[0]).toMatchObject({ objectId: 1, success: true });
  });

  it('async=true truncates as a job the client follows', async () => {
    const res = await edit(truncate, token, { async: 'true' });
    const job = await followJob(res.statusUrl, token);
    expect([job.status, job.operation, job.success]).toEqual(['Completed', 'truncate', true]);
    expect(await features(svc, token)).toEqual([]);
  });

  it('is refused to the layer endpoint of the services directory', async () => {
    const res = await call(`${svc.layer}/truncate`, { token });
    expect(res.status).toBe(404);
  });
});
