import { getServiceAdminInfo, updateServiceDefinition } from '@esri/arcgis-rest-feature-service';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDITABLE, type EditableService, edit, features, publishStations } from '../editing/edit-client.js';
import { newUser } from '../portal/portal-helpers.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { followJob } from './job-client.js';

// stations.csv: OBJECTID 1 North Pier (pier), 2 Lock Station (lock), 3 South Buoy (buoy).
describe('the feature service admin API', () => {
  let token: string;
  let svc: EditableService;
  let admin: string;
  let layerAdmin: string;
  let authentication: ArcGISIdentityManager;
  const layerJson = async () => (await call(svc.layer, { token }, { method: 'GET' })).json;
  const fieldOf = async (name: string) => (await layerJson()).fields.find((f: any) => f.name === name);
  const change = (op: string, body: unknown, at = layerAdmin) => edit(`${at}/${op}`, token, { [op]: body });

  beforeAll(async () => {
    token = await signIn();
    svc = await publishStations(token, EDITABLE);
    admin = `/rest/admin/services/Hosted/${svc.name}/FeatureServer`;
    layerAdmin = `${admin}/0`;
    authentication = await ArcGISIdentityManager.signIn({
      username: stack().admin.username,
      password: stack().admin.password,
      portal: `${stack().baseUrl}/sharing/rest`,
    });
  }, 120_000);

  it('shows the admin resource of the service with its layers to the owner', async () => {
    const info = (await getServiceAdminInfo(svc.url, authentication)) as Record<string, any>;
    expect(info.adminServiceInfo).toEqual({ name: svc.name, type: 'FeatureServer', status: 'Started' });
    expect(info.layers.map((l: any) => l.id)).toEqual([0]);
    expect(info.layers[0].fields.map((f: any) => f.name)).toContain('Kind');
  });

  it('addToDefinition adds empty fields and a unique index that the data then obeys', async () => {
    const before = Date.now();
    const res = await change('addToDefinition', {
      fields: [
        { name: 'Grade', type: 'esriFieldTypeInteger', alias: 'Grade of care' },
        { name: 'Note', type: 'esriFieldTypeString', length: 20 },
      ],
      indexes: [{ name: 'kind_idx', fields: 'Kind', isUnique: true }],
    });
    expect(res).toEqual({ success: true });
    const layer = await layerJson();
    const grade = layer.fields.find((f: any) => f.name === 'Grade');
    expect([grade.type, grade.alias, grade.nullable]).toEqual([
      'esriFieldTypeInteger',
      'Grade of care',
      true,
    ]);
    expect(layer.fields.find((f: any) => f.name === 'Note').length).toBe(20);
    expect(layer.indexes).toEqual([
      { name: 'kind_idx', fields: 'Kind', isAscending: true, isUnique: true, description: '' },
    ]);
    expect(layer.editingInfo.schemaLastEditDate).toBeGreaterThanOrEqual(before);
    expect((await features(svc, token)).map((f) => f.attributes.Grade)).toEqual([null, null, null]);

    const updated = await edit(`${svc.layer}/updateFeatures`, token, {
      features: [{ attributes: { OBJECTID: 1, Grade: 3 } }],
    });
    expect(updated.updateResults[0].success).toBe(true);
    expect((await features(svc, token, 'Grade = 3')).map((f) => f.attributes.OBJECTID)).toEqual([1]);
    // The unique index refuses a second 'pier'.
    const dup = await edit(`${svc.layer}/updateFeatures`, token, {
      features: [{ attributes: { OBJECTID: 2, Kind: 'pier' } }],
      rollbackOnFailure: false,
    });
    expect(dup.updateResults[0].success).toBe(false);
  });

  it('applyEdits with rollbackOnFailure answers the edit the unique index refuses and applies nothing', async () => {
    const res = await edit(`${svc.layer}/applyEdits`, token, {
      adds: [{ attributes: { Name: 'Weir', Kind: 'weir' }, geometry: { x: -9750000, y: 5140000 } }],
      updates: [
        { attributes: { OBJECTID: 3, Name: 'Renamed Buoy' } },
        { attributes: { OBJECTID: 2, Kind: 'pier' } },
      ],
      deletes: [1],
    });
    expect(res.addResults).toEqual([
      { globalId: null, success: false, error: { code: 1003, description: 'Operation rolled back.' } },
    ]);
    expect(res.updateResults.map((r: any) => [r.objectId, r.success, r.error.code])).toEqual([
      [3, false, 1003],
      [2, false, 1000],
    ]);
    expect(res.updateResults[1].error.description).toMatch(/unique index/);
    expect(res.deleteResults.map((r: any) => [r.objectId, r.success, r.error.code])).toEqual([
      [1, false, 1003],
    ]);
    const rows = (await features(svc, token)).map((f) => [
      f.attributes.OBJECTID,
      f.attributes.Name,
      f.attributes.Kind,
    ]);
    expect(rows).toEqual([
      [1, 'North Pier', 'pier'],
      [2, 'Lock Station', 'lock'],
      [3, 'South Buoy', 'buoy'],
    ]);
  });

  it('updateDefinition is all or nothing: a field that cannot be required leaves the others as they were', async () => {
    const stamp = (await layerJson()).editingInfo.schemaLastEditDate;
    const res = await change('updateDefinition', {
      fields: [
        { name: 'Name', nullable: false, alias: 'Station' },
        { name: 'Grade', nullable: false },
      ],
    });
    expect(res.error.code).toBe(400);
    expect(res.error.details[0]).toBe("'Grade' cannot be made required: 2 feature(s) have no value in it.");
    const name = await fieldOf('Name');
    expect([name.nullable, name.alias]).toEqual([true, 'Name']);
    expect((await layerJson()).editingInfo.schemaLastEditDate).toBe(stamp);
  });

  it('updateDefinition changes aliases, domains and nullability, and edits and the table obey them', async () => {
    const domain = {
      type: 'codedValue',
      name: 'kinds',
      codedValues: [
        { name: 'Pier', code: 'pier' },
        { name: 'Lock', code: 'lock' },
      ],
    };
    const res = await change('updateDefinition', {
      fields: [
        { name: 'Name', nullable: false, alias: 'Station' },
        { name: 'Kind', domain },
      ],
    });
    expect(res).toEqual({ success: true });
    expect(await fieldOf('Name')).toMatchObject({ nullable: false, alias: 'Station' });
    expect((await fieldOf('Kind')).domain).toEqual(domain);
    const added = await edit(`${svc.layer}/addFeatures`, token, {
      features: [{ attributes: { Kind: 'buoy2' }, geometry: { x: -9750000, y: 5140000 } }],
      rollbackOnFailure: false,
    });
    expect(added.addResults[0].success).toBe(false);
    const together = await edit(`${svc.layer}/addFeatures`, token, {
      features: [
        { attributes: { Name: 'Weir', Kind: 'weir' }, geometry: { x: -9750000, y: 5140000 } },
        { attributes: { Kind: 'lock' }, geometry: { x: -9750000, y: 5140000 } },
      ],
    });
    // Each edit fails on its own rule: the domain, then the required field (its NOT NULL column behind it).
    expect(together.addResults.map((r: any) => r.error)).toEqual([
      {
        code: 1016,
        description:
          'Setting of value for Kind failed: "weir" is not one of the coded values of domain \'kinds\'.',
      },
      { code: 1001, description: 'Field: Name is not nullable. Cannot set null value.' },
    ]);
    // calculate's expression meets the table's NOT NULL itself, reported by the field's name.
    const cleared = await call(`${svc.layer}/calculate`, {
      token,
      where: '1=1',
      calcExpression: JSON.stringify([{ field: 'Name', sqlExpression: 'NULL' }]),
    });
    expect(cleared.json.error.details).toEqual(['Field Name cannot be null.']);
    expect((await features(svc, token)).length).toBe(3);
    expect(await change('updateDefinition', { fields: [{ name: 'Name', nullable: true }] })).toEqual({
      success: true,
    });
  });

  it('updateDefinition sets drawingInfo, hasAttachments and editor tracking (fields filled for existing rows)', async () => {
    const drawingInfo = {
      renderer: {
        type: 'simple',
        symbol: { type: 'esriSMS', style: 'esriSMSSquare', color: [255, 0, 0, 255], size: 9 },
      },
    };
    const res = await change('updateDefinition', {
      drawingInfo,
      hasAttachments: false,
      editorTrackingInfo: { enableEditorTracking: true },
    });
    expect(res).toEqual({ success: true });
    const layer = await layerJson();
    expect(layer.drawingInfo).toEqual(drawingInfo);
    expect(layer.hasAttachments).toBe(false);
    expect(layer.editFieldsInfo).toEqual({
      creationDateField: 'CreationDate',
      creatorField: 'Creator',
      editDateField: 'EditDate',
      editorField: 'Editor',
    });
    const rows = await features(svc, token);
    expect(rows.map((r) => r.attributes.Creator)).toEqual(rows.map(() => stack().admin.username));
    expect(rows.every((r) => typeof r.attributes.CreationDate === 'number')).toBe(true);
  });

  it('updateServiceDefinition of @esri/arcgis-rest-feature-service sets maxRecordCount on every layer', async () => {
    await updateServiceDefinition(svc.url, { authentication, updateDefinition: { maxRecordCount: 2 } });
    expect((await layerJson()).maxRecordCount).toBe(2);
    const page = (await call(`${svc.layer}/query`, { token, where: '1=1', outFields: 'OBJECTID' })).json;
    expect(page.features.length).toBe(2);
    expect(page.exceededTransferLimit).toBe(true);
    const service = (await call(svc.url.replace(stack().baseUrl, ''), { token }, { method: 'GET' })).json;
    expect(service.maxRecordCount).toBe(2);
  });

  it('deleteFromDefinition drops fields and indexes', async () => {
    const res = await change('deleteFromDefinition', {
      fields: [{ name: 'Note' }],
      indexes: [{ name: 'kind_idx' }],
    });
    expect(res).toEqual({ success: true });
    const layer = await layerJson();
    expect(layer.fields.map((f: any) => f.name)).not.toContain('Note');
    expect(layer.indexes).toEqual([]);
    const query = await call(`${svc.layer}/query`, { token, where: '1=1', outFields: 'Note' });
    expect(query.json.error.code).toBe(400);
    // Without the unique index a second 'pier' is accepted.
    const dup = await edit(`${svc.layer}/updateFeatures`, token, {
      features: [{ attributes: { OBJECTID: 2, Kind: 'pier' } }],
      rollbackOnFailure: false,
    });
    expect(dup.updateResults[0].success).toBe(true);
  });

  it('refuses what it cannot do, naming it', async () => {
    expect((await change('updateDefinition', { supportsMagic: true })).error.details[0]).toMatch(
      /supportsMagic/,
    );
    expect((await change('deleteFromDefinition', { fields: [{ name: 'OBJECTID' }] })).error.details[0]).toBe(
      'The object id field cannot be deleted.',
    );
    expect(
      (await change('addToDefinition', { fields: [{ name: 'Blob', type: 'esriFieldTypeBlob' }] })).error.code,
    ).toBe(400);
    expect((await change('updateDefinition', { capabilities: 'Query,Sync' })).error.details[0]).toMatch(
      /Sync/,
    );
    expect(
      (await change('addToDefinition', { layers: [{ id: 7, name: 'new' }] }, admin)).error.details[0],
    ).toMatch(/Layer 7 does not exist/);
  });

  it('service updateDefinition of capabilities reaches the layers and stops edits', async () => {
    expect(await change('updateDefinition', { capabilities: 'Query' }, admin)).toEqual({ success: true });
    expect((await layerJson()).capabilities).toBe('Query');
    const res = await edit(`${svc.layer}/addFeatures`, token, {
      features: [{ attributes: { Name: 'x' }, geometry: { x: -9750000, y: 5140000 } }],
    });
    expect(res.error.message).toBe('Requested operation is not supported by this service.');
  });

  it('async=true runs a definition change as a job the owner follows', async () => {
    const res = await change('updateDefinition', { maxRecordCount: 7 });
    expect(res).toEqual({ success: true });
    const job = await edit(`${layerAdmin}/updateDefinition`, token, {
      updateDefinition: { maxRecordCount: 9 },
      async: 'true',
    });
    const done = await followJob(job.statusUrl, token);
    expect([done.status, done.operation, done.success]).toEqual(['Completed', 'updateDefinition', true]);
    expect((await layerJson()).maxRecordCount).toBe(9);
  });

  it('answers only the owner and administrators', async () => {
    const other = await newUser('org_publisher');
    const read = await call(admin, { token: other.token }, { method: 'GET' });
    expect(read.json.error.code).toBe(403);
    const write = await edit(`${layerAdmin}/updateDefinition`, other.token, {
      updateDefinition: { description: 'mine now' },
    });
    expect(write.error.code).toBe(403);
  });
});
