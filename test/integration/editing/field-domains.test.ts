import { addFeatures, applyEdits, updateFeatures } from '@esri/arcgis-rest-feature-service';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { featureServer } from '../publish/publish-client.js';
import { adminToken, call, stack } from '../support/portal-client.js';
import { EDITABLE, type EditableService, edit, features, publishStations } from './edit-client.js';

// stations.csv: OBJECTID 1 North Pier (pier, 4.5 m), 2 Lock Station (lock, 7.25 m), 3 South Buoy (buoy, 12 m).
const KINDS = ['pier', 'lock', 'buoy'];
const kindDomain = {
  type: 'codedValue',
  name: 'StationKinds',
  codedValues: KINDS.map((code) => ({ name: code.toUpperCase(), code })),
};
const DEPTH = [0, 15];
const depthDomain = { type: 'range', name: 'Depths', range: DEPTH };

const notCoded = (field: string, value: unknown) => ({
  code: 1016,
  description: `Setting of value for ${field} failed: ${JSON.stringify(value)} is not one of the coded values of domain '${kindDomain.name}'.`,
});
const outOfRange = (field: string, value: number) => ({
  code: 1016,
  description: `Setting of value for ${field} failed: ${value} is outside the range ${DEPTH[0]}..${DEPTH[1]} of domain '${depthDomain.name}'.`,
});
const point = { x: -9750500, y: 5140500, spatialReference: { wkid: 102100 } };

describe('field domains enforced on edits', () => {
  let token: string;
  let svc: EditableService;
  let authentication: ArcGISIdentityManager;
  const stored = async () =>
    (await features(svc, token)).map((f) => [f.attributes.OBJECTID, f.attributes.Kind, f.attributes.Depth]);

  beforeAll(async () => {
    token = await adminToken();
    svc = await publishStations(token, EDITABLE);
    const admin = `/rest/admin/services/Hosted/${svc.name}/FeatureServer/0`;
    const changed = await edit(`${admin}/updateDefinition`, token, {
      updateDefinition: {
        fields: [
          { name: 'Kind', domain: kindDomain },
          { name: 'Depth', domain: depthDomain },
          { name: 'Visits', nullable: false },
        ],
      },
    });
    expect(changed).toEqual({ success: true });
    authentication = await ArcGISIdentityManager.signIn({
      username: stack().admin.username,
      password: stack().admin.password,
      portal: `${stack().baseUrl}/sharing/rest`,
    });
  }, 120_000);

  it('applyEdits refuses a code outside the list and, rolling back, applies nothing', async () => {
    const before = await stored();
    const res = await edit(`${featureServer(svc.name)}/applyEdits`, token, {
      edits: [
        {
          id: 0,
          adds: [{ attributes: { Name: 'Ferry', Kind: 'ferry', Visits: 1 }, geometry: point }],
          updates: [{ attributes: { OBJECTID: 1, Depth: 5 } }],
        },
      ],
    });
    expect(res[0].addResults).toEqual([{ globalId: null, success: false, error: notCoded('Kind', 'ferry') }]);
    expect(res[0].updateResults[0]).toMatchObject({ success: false, error: { code: 1003 } });
    expect(await stored()).toEqual(before);
  });

  it('without rollbackOnFailure only the edit outside its range fails', async () => {
    const res = await edit(`${svc.layer}/applyEdits`, token, {
      updates: [
        { attributes: { OBJECTID: 1, Depth: DEPTH[1] + 0.5 } },
        { attributes: { OBJECTID: 2, Depth: DEPTH[1], Kind: 'buoy' } },
      ],
      rollbackOnFailure: false,
    });
    expect(res.updateResults).toEqual([
      {
        objectId: 1,
        uniqueId: 1,
        globalId: null,
        success: false,
        error: outOfRange('Depth', DEPTH[1] + 0.5),
      },
      { objectId: 2, uniqueId: 2, globalId: null, success: true },
    ]);
    const rows = await stored();
    expect(rows[0]).toEqual([1, 'pier', 4.5]);
    expect(rows[1]).toEqual([2, 'buoy', DEPTH[1]]);
  });

  it('null follows nullable: a nullable field with a domain takes it, a required field does not', async () => {
    const res = await edit(`${svc.layer}/addFeatures`, token, {
      features: [
        { attributes: { Name: 'Unknown', Kind: null, Depth: null, Visits: 0 }, geometry: point },
        { attributes: { Name: 'No visits', Kind: 'pier', Visits: null }, geometry: point },
        { attributes: { Name: 'Visits left out', Kind: 'pier' }, geometry: point },
      ],
      rollbackOnFailure: false,
    });
    const required = { code: 1001, description: 'Field: Visits is not nullable. Cannot set null value.' };
    expect(res.addResults.map((r: { success: boolean; error?: unknown }) => r.error ?? r.success)).toEqual([
      true,
      required,
      required,
    ]);
  });

  it('@esri/arcgis-rest-feature-service addFeatures and updateFeatures get the per-edit error', async () => {
    const added = await addFeatures({
      url: `${svc.url}/0`,
      authentication,
      features: [
        { attributes: { Name: 'Deep', Kind: 'lock', Depth: -1, Visits: 2 }, geometry: point as never },
      ],
    });
    expect(added.addResults[0]).toMatchObject({ success: false, error: outOfRange('Depth', -1) });
    const updated = await updateFeatures({
      url: `${svc.url}/0`,
      authentication,
      features: [{ attributes: { OBJECTID: 3, Kind: 'Buoy' } }],
    });
    expect(updated.updateResults[0]).toMatchObject({
      objectId: 3,
      success: false,
      error: notCoded('Kind', 'Buoy'),
    });
    const applied = await applyEdits({
      url: `${svc.url}/0`,
      authentication,
      adds: [
        {
          attributes: { Name: 'Shallow', Kind: 'lock', Depth: DEPTH[0], Visits: 2 },
          geometry: point as never,
        },
      ],
    });
    expect(applied.addResults[0].success).toBe(true);
    const row = await features(svc, token, `OBJECTID = ${applied.addResults[0].objectId}`);
    expect([row[0].attributes.Kind, row[0].attributes.Depth]).toEqual(['lock', DEPTH[0]]);
  });

  it('calculate whose value or expression leaves the domain fails as a whole and changes nothing', async () => {
    const before = await stored();
    const calc = (calcExpression: unknown) =>
      call(`${svc.layer}/calculate`, { token, where: '1=1', calcExpression: JSON.stringify(calcExpression) });
    const byValue = await calc([{ field: 'Kind', value: 'ferry' }]);
    expect(byValue.json.error.details).toContain(notCoded('Kind', 'ferry').description);
    // Depth * 2 takes 12 m (South Buoy's depth, or the 15 m set above) past the range's 15.
    const deepest = Math.max(...before.map((r) => Number(r[2] ?? 0)));
    expect(deepest * 2).toBeGreaterThan(DEPTH[1]);
    const overflowing = before.filter((r) => r[2] !== null && Number(r[2]) * 2 > DEPTH[1]).length;
    const byExpression = await calc([{ field: 'Depth', sqlExpression: 'Depth * 2' }]);
    expect(byExpression.json.error.details).toEqual([
      `The value calculated for 'Depth' is outside the range ${DEPTH[0]}..${DEPTH[1]} of domain '${depthDomain.name}' for ${overflowing} feature(s).`,
    ]);
    expect(await stored()).toEqual(before);
    const inside = await calc([{ field: 'Depth', sqlExpression: 'Depth / 2' }]);
    expect(inside.json).toMatchObject({ success: true });
    expect((await stored()).map((r) => r[2])).toEqual(
      before.map((r) => (r[2] === null ? null : Number(r[2]) / 2)),
    );
  });
});
