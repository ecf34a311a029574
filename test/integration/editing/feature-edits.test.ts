import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call } from '../support/portal-client.js';
import { EDITABLE, type EditableService, edit, features, publishStations } from './edit-client.js';

const pier = (name: string, lon: number, lat: number, extra: Record<string, unknown> = {}) => ({
  attributes: { Name: name, Kind: 'pier', Depth: 3.25, Visits: 7, Opened: Date.UTC(2022, 0, 2), ...extra },
  geometry: { x: lon, y: lat, spatialReference: { wkid: 4326 } },
});

const count = async (s: EditableService, token: string) =>
  (await call(`${s.layer}/query`, { token, where: '1=1', returnCountOnly: 'true' })).json.count as number;

describe('editing a hosted point layer', () => {
  let token: string;
  let svc: EditableService;

  beforeAll(async () => {
    token = await adminToken();
    svc = await publishStations(token, EDITABLE);
  }, 120_000);

  it('addFeatures stores attributes and a WGS84 geometry under the next object ids', async () => {
    const res = await edit(`${svc.layer}/addFeatures`, token, {
      features: [pier('East Dock', -87.59, 41.9), pier('West Dock', -87.63, 41.88, { Visits: null })],
    });
    expect(res.addResults).toEqual([
      { objectId: 4, uniqueId: 4, globalId: null, success: true },
      { objectId: 5, uniqueId: 5, globalId: null, success: true },
    ]);
    const [east, west] = (await features(svc, token)).slice(3);
    expect(east.attributes).toMatchObject({ OBJECTID: 4, Name: 'East Dock', Depth: 3.25, Visits: 7 });
    expect(east.attributes.Opened).toBe(Date.UTC(2022, 0, 2));
    expect(east.geometry?.x).toBeCloseTo(-87.59, 6);
    expect(east.geometry?.y).toBeCloseTo(41.9, 6);
    expect(west.attributes.Visits).toBeNull();
  });

  it('updateFeatures changes only the named attributes and moves the point given in inSR', async () => {
    const res = await edit(`${svc.layer}/updateFeatures`, token, {
      features: [{ attributes: { OBJECTID: 4, Depth: 9.5 }, geometry: { x: -87.58, y: 41.91 } }],
      inSR: '4326',
    });
    expect(res.updateResults).toEqual([{ objectId: 4, uniqueId: 4, globalId: null, success: true }]);
    const east = (await features(svc, token, 'OBJECTID = 4'))[0];
    expect(east.attributes).toMatchObject({ Name: 'East Dock', Depth: 9.5, Visits: 7 });
    expect(east.geometry?.x).toBeCloseTo(-87.58, 6);
  });

  it('the single feature resource answers {feature:{attributes, geometry}} in the storage reference', async () => {
    const res = (await call(`${svc.layer}/4`, { token }, { method: 'GET' })).json;
    expect(res.feature.attributes).toMatchObject({ OBJECTID: 4, Name: 'East Dock' });
    expect(res.feature.geometry.x).toBeCloseTo(-9749361.0, 0);
    const missing = (await call(`${svc.layer}/999`, { token }, { method: 'GET' })).json;
    expect(missing.error.code).toBe(404);
  });

  it('a value its field cannot hold fails that edit with a message naming the field', async () => {
    const res = await edit(`${svc.layer}/addFeatures`, token, {
      features: [pier('Bad', -87.6, 41.9, { Visits: 2.5 })],
    });
    expect(res.addResults[0].success).toBe(false);
    expect(res.addResults[0].error).toEqual({
      code: 1016,
      description: 'Setting of value for Visits failed: 2.5 is not an integer.',
    });
    const unknown = await edit(`${svc.layer}/addFeatures`, token, {
      features: [pier('Bad', -87.6, 41.9, { Colour: 'red' })],
    });
    expect(unknown.addResults[0].error.description).toBe("Field 'Colour' does not exist in this layer.");
  });

  it('a polygon in a point layer is refused', async () => {
    const res = await edit(`${svc.layer}/addFeatures`, token, {
      features: [
        {
          attributes: { Name: 'Area' },
          geometry: {
            rings: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 0],
              ],
            ],
          },
        },
      ],
    });
    expect(res.addResults[0].error.description).toBe('The geometry is a polygon; this layer holds points.');
  });

  it('applyEdits with rollbackOnFailure (the default) writes nothing when one edit fails', async () => {
    const before = await features(svc, token);
    const res = await edit(`${svc.layer}/applyEdits`, token, {
      adds: [pier('Good', -87.6, 41.9), pier('Too long', -87.6, 41.9, { Kind: 'x'.repeat(5000) })],
      updates: [{ attributes: { OBJECTID: 1, Name: 'Renamed' } }],
      deletes: '2',
    });
    expect(res.addResults.map((r: any) => r.error?.code)).toEqual([1003, 1016]);
    expect(res.updateResults).toEqual([
      {
        objectId: 1,
        uniqueId: 1,
        globalId: null,
        success: false,
        error: { code: 1003, description: 'Operation rolled back.' },
      },
    ]);
    expect(res.deleteResults[0]).toMatchObject({ objectId: 2, success: false });
    expect(await features(svc, token)).toEqual(before);
  });

  it('applyEdits with rollbackOnFailure=false keeps the edits that succeed', async () => {
    const res = await edit(`${svc.layer}/applyEdits`, token, {
      adds: [pier('Kept', -87.61, 41.89), pier('Refused', -87.6, 41.9, { Depth: 'deep' })],
      updates: [{ attributes: { OBJECTID: 1, Name: 'North Pier (renamed)' } }],
      deletes: [2, 777],
      rollbackOnFailure: 'false',
    });
    expect(res.addResults.map((r: any) => r.success)).toEqual([true, false]);
    expect(res.updateResults[0].success).toBe(true);
    expect(res.deleteResults).toEqual([
      { objectId: 2, uniqueId: 2, globalId: null, success: true },
      {
        objectId: 777,
        uniqueId: 777,
        globalId: null,
        success: false,
        error: { code: 1019, description: 'Object is missing: no feature has object id 777.' },
      },
    ]);
    const names = (await features(svc, token)).map((f) => [f.attributes.OBJECTID, f.attributes.Name]);
    expect(names).toEqual([
      [1, 'North Pier (renamed)'],
      [3, 'South Buoy'],
      [4, 'East Dock'],
      [5, 'West Dock'],
      // 6 went to the add the rollback above undid: ids are never handed out twice.
      [7, 'Kept'],
    ]);
  });

  it("the layer's extent and count follow the edits", async () => {
    await edit(`${svc.layer}/addFeatures`, token, { features: [pier('Far', -80, 30)] });
    const layer = (await call(svc.layer, { token }, { method: 'GET' })).json;
    expect(layer.extent.ymin).toBeCloseTo(3503549.84, 1);
    expect(layer.extent.xmax).toBeCloseTo(-8905559.26, 1);
    expect(layer.editingInfo.lastEditDate).toBeGreaterThan(Date.now() - 60_000);
    const service = (
      await call(`/rest/services/Hosted/${svc.name}/FeatureServer`, { token }, { method: 'GET' })
    ).json;
    expect(service.fullExtent.ymin).toBeCloseTo(3503549.84, 1);
    expect(await count(svc, token)).toBe(6);
  });

  it('deleteFeatures by where clause deletes what it matches; injected SQL is refused and harmless', async () => {
    const injected = await edit(`${svc.layer}/deleteFeatures`, token, {
      where: '1=1; DROP TABLE hosted_layers --',
    });
    expect(injected.error.code).toBe(400);
    const quoted = await edit(`${svc.layer}/deleteFeatures`, token, { where: "Name = 'x'' OR ''1''=''1'" });
    expect(quoted.deleteResults).toEqual([]);
    expect(await count(svc, token)).toBe(6);
    const res = await edit(`${svc.layer}/deleteFeatures`, token, { where: "Name LIKE '%Dock'" });
    expect(res.deleteResults.map((r: any) => [r.objectId, r.success])).toEqual([
      [4, true],
      [5, true],
    ]);
    expect(await count(svc, token)).toBe(4);
  });

  it('deleteFeatures by geometry deletes the features inside the envelope (inSR 4326)', async () => {
    const res = await edit(`${svc.layer}/deleteFeatures`, token, {
      geometry: '-81,29,-79,31',
      geometryType: 'esriGeometryEnvelope',
      inSR: '4326',
    });
    expect(res.deleteResults.map((r: any) => r.objectId)).toEqual([8]);
    expect(await count(svc, token)).toBe(3);
  });

  it('service-level applyEdits takes the edits per layer id', async () => {
    const res = await edit(`/rest/services/Hosted/${svc.name}/FeatureServer/applyEdits`, token, {
      edits: [{ id: 0, adds: [pier('Via service', -87.62, 41.87)], deletes: [7] }],
    });
    expect(res).toEqual([
      {
        id: 0,
        addResults: [{ objectId: 9, uniqueId: 9, globalId: null, success: true }],
        updateResults: [],
        deleteResults: [{ objectId: 7, uniqueId: 7, globalId: null, success: true }],
      },
    ]);
    const unknownLayer = await edit(`/rest/services/Hosted/${svc.name}/FeatureServer/applyEdits`, token, {
      edits: [{ id: 5, adds: [] }],
    });
    expect(unknownLayer.error.details).toEqual(['Layer 5 does not exist.']);
  });

  it('a malformed features parameter is an envelope error', async () => {
    const res = await edit(`${svc.layer}/addFeatures`, token, { features: '[{"attributes":' });
    expect(res.error).toMatchObject({
      code: 400,
      details: ["'features' parameter is invalid", 'the value is not valid JSON'],
    });
  });
});

describe('capabilities decide which edits a layer takes', () => {
  it('a layer published with capabilities Query refuses every edit', async () => {
    const token = await adminToken();
    const svc = await publishStations(token, { capabilities: 'Query' });
    const add = await edit(`${svc.layer}/addFeatures`, token, { features: [pier('No', -87.6, 41.9)] });
    expect(add.error).toMatchObject({
      code: 400,
      message: 'Requested operation is not supported by this service.',
    });
    const del = await edit(`${svc.layer}/deleteFeatures`, token, { objectIds: '1' });
    expect(del.error.message).toBe('Requested operation is not supported by this service.');
    expect(await count(svc, token)).toBe(3);
  }, 120_000);

  it('a layer with Create only adds but refuses updates', async () => {
    const token = await adminToken();
    const svc = await publishStations(token, { capabilities: 'Query,Create' });
    const add = await edit(`${svc.layer}/addFeatures`, token, { features: [pier('Yes', -87.6, 41.9)] });
    expect(add.addResults[0].success).toBe(true);
    const upd = await edit(`${svc.layer}/updateFeatures`, token, {
      features: [{ attributes: { OBJECTID: 1, Name: 'x' } }],
    });
    expect(upd.error.message).toBe('Requested operation is not supported by this service.');
  }, 120_000);
});
