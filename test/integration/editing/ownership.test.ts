import { beforeAll, describe, expect, it } from 'vitest';
import { newUser, type TestUser } from '../portal/portal-helpers.js';
import { adminToken, call, stack } from '../support/portal-client.js';
import { EDITABLE, type EditableService, edit, features, publishStations } from './edit-client.js';

const share = async (svc: EditableService, params: Record<string, string>) => {
  const res = await call(
    `/sharing/rest/content/users/${stack().admin.username}/items/${svc.serviceItemId}/share`,
    {
      token: await adminToken(),
      ...params,
    },
  );
  if (res.json.error) throw new Error(`share failed: ${res.text}`);
};

const dock = (name: string) => ({
  attributes: { Name: name, Kind: 'dock' },
  geometry: { x: -87.6, y: 41.9, spatialReference: { wkid: 4326 } },
});

const tracking = (extra: Record<string, boolean>) => ({
  ...EDITABLE,
  editorTrackingInfo: { enableEditorTracking: true, enableOwnershipAccessControl: true, ...extra },
});

describe('editor tracking', () => {
  let token: string;
  let svc: EditableService;
  let alice: TestUser;
  let publishedAround: number;

  beforeAll(async () => {
    token = await adminToken();
    alice = await newUser();
    publishedAround = Date.now();
    svc = await publishStations(token, tracking({ allowOthersToUpdate: true, allowOthersToDelete: true }));
    await share(svc, { org: 'true' });
  }, 120_000);

  it('the layer has CreationDate, Creator, EditDate and Editor, not editable, named in editFieldsInfo', async () => {
    const layer = (await call(svc.layer, { token }, { method: 'GET' })).json;
    expect(layer.editFieldsInfo).toEqual({
      creationDateField: 'CreationDate',
      creatorField: 'Creator',
      editDateField: 'EditDate',
      editorField: 'Editor',
    });
    const byName = Object.fromEntries(layer.fields.map((f: any) => [f.name, f]));
    expect(byName.CreationDate).toMatchObject({ type: 'esriFieldTypeDate', editable: false });
    expect(byName.Creator).toMatchObject({ type: 'esriFieldTypeString', editable: false });
    expect(byName.EditDate).toMatchObject({ type: 'esriFieldTypeDate', editable: false });
    expect(byName.Editor).toMatchObject({ type: 'esriFieldTypeString', editable: false });
  });

  it('rows loaded at publish are credited to the publisher at publish time', async () => {
    const [first] = await features(svc, token);
    expect(first.attributes.Creator).toBe(stack().admin.username);
    expect(first.attributes.Editor).toBe(stack().admin.username);
    expect(first.attributes.CreationDate).toBeGreaterThanOrEqual(publishedAround - 1000);
    expect(first.attributes.CreationDate).toBeLessThanOrEqual(Date.now());
  });

  it('an add records who and when; a client cannot set the tracking fields', async () => {
    const before = Date.now();
    const add = await edit(`${svc.layer}/addFeatures`, alice.token, {
      features: [{ ...dock('Alice dock'), attributes: { Name: 'Alice dock', Creator: 'mallory' } }],
    });
    expect(add.addResults[0].success).toBe(true);
    const [f] = await features(svc, token, "Name = 'Alice dock'");
    expect(f.attributes.Creator).toBe(alice.username);
    expect(f.attributes.Editor).toBe(alice.username);
    expect(f.attributes.CreationDate).toBeGreaterThanOrEqual(before - 1000);
    expect(f.attributes.EditDate).toBe(f.attributes.CreationDate);
  });

  it('an update records the editor and the edit time and keeps the creator', async () => {
    const [f] = await features(svc, token, "Name = 'Alice dock'");
    const res = await edit(`${svc.layer}/updateFeatures`, token, {
      features: [{ attributes: { OBJECTID: f.attributes.OBJECTID, Kind: 'pier' } }],
    });
    expect(res.updateResults[0].success).toBe(true);
    const [after] = await features(svc, token, "Name = 'Alice dock'");
    expect(after.attributes).toMatchObject({
      Creator: alice.username,
      Editor: stack().admin.username,
      Kind: 'pier',
    });
    expect(after.attributes.EditDate).toBeGreaterThanOrEqual(f.attributes.EditDate);
    expect(after.attributes.CreationDate).toBe(f.attributes.CreationDate);
  });
});

describe('ownership access control', () => {
  let token: string;
  let alice: TestUser;
  let bob: TestUser;
  let guarded: EditableService;
  let hidden: EditableService;
  let aliceFeature: number;

  beforeAll(async () => {
    token = await adminToken();
    [alice, bob] = [await newUser(), await newUser()];
    guarded = await publishStations(
      token,
      tracking({ allowOthersToUpdate: false, allowOthersToDelete: false }),
    );
    hidden = await publishStations(
      token,
      tracking({ allowOthersToQuery: false, allowOthersToUpdate: false, allowOthersToDelete: false }),
    );
    await share(guarded, { org: 'true' });
    await share(hidden, { org: 'true' });
    const add = await edit(`${guarded.layer}/addFeatures`, alice.token, { features: [dock('Alice dock')] });
    aliceFeature = add.addResults[0].objectId;
  }, 180_000);

  it('others may not update a feature they did not create; its creator may', async () => {
    const byBob = await edit(`${guarded.layer}/updateFeatures`, bob.token, {
      features: [{ attributes: { OBJECTID: aliceFeature, Name: 'Bob was here' } }],
    });
    expect(byBob.updateResults[0]).toMatchObject({
      objectId: aliceFeature,
      success: false,
      error: { code: 1000 },
    });
    expect(byBob.updateResults[0].error.description).toContain('created by someone else');
    const byAlice = await edit(`${guarded.layer}/updateFeatures`, alice.token, {
      features: [{ attributes: { OBJECTID: aliceFeature, Name: 'Alice dock 2' } }],
    });
    expect(byAlice.updateResults[0].success).toBe(true);
    const publisherRow = await edit(`${guarded.layer}/updateFeatures`, alice.token, {
      features: [{ attributes: { OBJECTID: 1, Name: 'Not hers' } }],
    });
    expect(publisherRow.updateResults[0].success).toBe(false);
  });

  it('the owner and administrators are not restricted', async () => {
    const res = await edit(`${guarded.layer}/updateFeatures`, token, {
      features: [{ attributes: { OBJECTID: aliceFeature, Kind: 'checked' } }],
    });
    expect(res.updateResults[0].success).toBe(true);
  });

  it("a delete by where clause takes only the caller's own features", async () => {
    const add = await edit(`${guarded.layer}/addFeatures`, bob.token, { features: [dock('Bob dock')] });
    const bobFeature = add.addResults[0].objectId;
    const res = await edit(`${guarded.layer}/deleteFeatures`, bob.token, { where: '1=1' });
    expect(res.deleteResults).toEqual([
      { objectId: bobFeature, uniqueId: bobFeature, globalId: null, success: true },
    ]);
    const byIds = await edit(`${guarded.layer}/deleteFeatures`, bob.token, {
      objectIds: String(aliceFeature),
    });
    expect(byIds.deleteResults[0].success).toBe(false);
    expect((await features(guarded, token)).map((f) => f.attributes.OBJECTID)).toEqual([
      1,
      2,
      3,
      aliceFeature,
    ]);
  });

  it('with allowOthersToQuery false others see only their own features', async () => {
    await edit(`${hidden.layer}/addFeatures`, alice.token, { features: [dock('Alice dock')] });
    await edit(`${hidden.layer}/addFeatures`, bob.token, { features: [dock('Bob dock')] });
    expect((await features(hidden, bob.token)).map((f) => f.attributes.Name)).toEqual(['Bob dock']);
    expect((await features(hidden, alice.token)).map((f) => f.attributes.Name)).toEqual(['Alice dock']);
    expect(await features(hidden, token)).toHaveLength(5);
    const aliceId = (await features(hidden, alice.token))[0].attributes.OBJECTID;
    const single = (await call(`${hidden.layer}/${aliceId}`, { token: bob.token }, { method: 'GET' })).json;
    expect(single.error.code).toBe(404);
    const sneaky = await call(`${hidden.layer}/query`, {
      token: bob.token,
      where: '1=1) OR (1=1',
      outFields: '*',
    });
    expect(sneaky.json.error.code).toBe(400);
  });

  it('a user who cannot read the service cannot edit it', async () => {
    const anonymous = await edit(`${guarded.layer}/addFeatures`, undefined, { features: [dock('x')] });
    expect(anonymous.error.code).toBe(499);
    await share(hidden, { org: 'false', everyone: 'false' });
    const res = await edit(`${hidden.layer}/addFeatures`, alice.token, { features: [dock('x')] });
    expect(res.error.code).toBe(403);
  });
});

describe('anonymous editing of a public service', () => {
  let svc: EditableService;

  beforeAll(async () => {
    const token = await adminToken();
    svc = await publishStations(
      token,
      tracking({ allowOthersToUpdate: true, allowAnonymousToUpdate: false, allowAnonymousToDelete: true }),
    );
    await share(svc, { everyone: 'true' });
  }, 120_000);

  it('anonymous callers add with an empty creator, may delete but not update under allowAnonymousTo…', async () => {
    const add = await edit(`${svc.layer}/addFeatures`, undefined, { features: [dock('Anonymous dock')] });
    const id = add.addResults[0].objectId;
    const [f] = await features(svc, undefined, `OBJECTID = ${id}`);
    expect(f.attributes.Creator).toBe('');
    const update = await edit(`${svc.layer}/updateFeatures`, undefined, {
      features: [{ attributes: { OBJECTID: id, Name: 'changed' } }],
    });
    expect(update.updateResults[0].success).toBe(false);
    const del = await edit(`${svc.layer}/deleteFeatures`, undefined, { objectIds: String(id) });
    expect(del.deleteResults[0]).toMatchObject({ objectId: id, success: true });
  });
});
