/**
 * append writes each batch as sets of rows; these rows must still fail one by one as applyEdits' rules
 * say: coded-value and range domains (1016), a unique index the database enforces (a refused set is
 * written again row by row), defaults for fields the source leaves out, editor tracking, upsert
 * updates beside adds, and the layer's count and extent written once at the end.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { EDITABLE, type EditableService, edit, features, publishStations } from '../editing/edit-client.js';
import { call, signIn, stack } from '../support/portal-client.js';

// stations.csv: OBJECTID 1 North Pier (pier, 4.5 m), 2 Lock Station (lock, 7.25 m), 3 South Buoy (buoy, 12 m).
const kindDomain = {
  type: 'codedValue',
  name: 'AppendKinds',
  codedValues: ['pier', 'lock', 'buoy', 'ferry', 'dock'].map((code) => ({ name: code, code })),
};
const depthDomain = { type: 'range', name: 'AppendDepths', range: [0, 15] };
const UNIQUE = {
  code: 1000,
  description: 'The value breaks a unique index of the layer: another feature holds it.',
};
const notCoded = (value: string) => ({
  code: 1016,
  description: `Setting of value for Kind failed: ${JSON.stringify(value)} is not one of the coded values of domain 'AppendKinds'.`,
});
const outOfRange = (value: number) => ({
  code: 1016,
  description: `Setting of value for Depth failed: ${value} is outside the range 0..15 of domain 'AppendDepths'.`,
});

/** WGS84 to Web Mercator, spherical, as written in EPSG:3857's definition. */
const mercator = (lon: number, lat: number) => {
  const r = 6378137;
  return [(lon * Math.PI * r) / 180, r * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))];
};

describe('append applies applyEdits rules to every row of its sets', () => {
  let token: string;
  let svc: EditableService;
  const owner = () => stack().admin.username;

  const addCsv = async (text: string) => {
    const added = await call(`/sharing/rest/content/users/${owner()}/addItem`, {
      token,
      type: 'CSV',
      title: `append rules ${Date.now()}`,
      text,
    });
    if (!added.json.id) throw new Error(`addItem failed: ${added.text}`);
    return added.json.id as string;
  };
  const append = (params: Record<string, unknown>) => edit(`${svc.layer}/append`, token, params);
  const byName = async () =>
    new Map((await features(svc, token)).map((f) => [f.attributes.Name as string, f]));
  const xy = { appendSourceInfo: { latitudeFieldName: 'Lat', longitudeFieldName: 'Lon' } };
  const outcome = (r: any) => (r.success ? 'ok' : r.error);

  beforeAll(async () => {
    token = await signIn();
    svc = await publishStations(token, {
      ...EDITABLE,
      editorTrackingInfo: { enableEditorTracking: true },
    });
    const admin = `/rest/admin/services/Hosted/${svc.name}/FeatureServer/0`;
    const changed = await edit(`${admin}/updateDefinition`, token, {
      updateDefinition: {
        fields: [
          { name: 'Kind', domain: kindDomain },
          { name: 'Depth', domain: depthDomain },
          { name: 'Visits', defaultValue: 9 },
        ],
      },
    });
    if (!changed.success) throw new Error(JSON.stringify(changed));
    const indexed = await edit(`${admin}/addToDefinition`, token, {
      addToDefinition: { indexes: [{ name: 'append_rules_name', fields: 'Name', isUnique: true }] },
    });
    if (!indexed.success) throw new Error(JSON.stringify(indexed));
  }, 120_000);

  it('without rollbackOnFailure each refused row fails alone, the others are added with defaults and tracking', async () => {
    const item = await addCsv(
      [
        'Name,Kind,Depth,Lat,Lon',
        'Ferry A,ferry,3,41.9,-87.6',
        'Bad Kind,tram,3,41.9,-87.6',
        'North Pier,dock,3,41.9,-87.6',
        'Too Deep,dock,99,41.9,-87.6',
        'Dock B,dock,,45.5,-80.25',
        'Ferry A,ferry,1,41.9,-87.6',
      ].join('\n'),
    );
    const res = await append({ appendItemId: item, rollbackOnFailure: false, ...xy });
    expect([res.status, res.recordCount, res.addedCount, res.failedCount]).toEqual(['Completed', 6, 2, 4]);
    expect(res.addResults.map(outcome)).toEqual([
      'ok',
      notCoded('tram'),
      UNIQUE,
      outOfRange(99),
      'ok',
      UNIQUE,
    ]);
    const stored = await byName();
    expect(stored.size).toBe(5);
    const ferry = stored.get('Ferry A')!;
    const dock = stored.get('Dock B')!;
    // The ids the answer gives are the features' ids; the refused row between them used none.
    expect([res.addResults[0].objectId, res.addResults[4].objectId]).toEqual([
      ferry.attributes.OBJECTID,
      dock.attributes.OBJECTID,
    ]);
    expect([ferry.attributes.OBJECTID, dock.attributes.OBJECTID]).toEqual([4, 6]);
    // Visits is not in the source: the field's default; Depth is, empty: null.
    expect([ferry.attributes.Kind, ferry.attributes.Depth, ferry.attributes.Visits]).toEqual(['ferry', 3, 9]);
    expect([dock.attributes.Kind, dock.attributes.Depth, dock.attributes.Visits]).toEqual(['dock', null, 9]);
    expect([dock.attributes.Creator, dock.attributes.Editor]).toEqual([owner(), owner()]);
    expect(dock.geometry!.x).toBeCloseTo(-80.25, 6);
    expect(dock.geometry!.y).toBeCloseTo(45.5, 6);
    expect(stored.get('North Pier')!.attributes.Kind).toBe('pier');

    // Count and extent of the layer resource, written once for the append.
    const layer = (await call(svc.layer, { token }, { method: 'GET' })).json;
    const count = (await call(`${svc.layer}/query`, { token, where: '1=1', returnCountOnly: 'true' })).json;
    expect(count.count).toBe(5);
    const [xmax, ymax] = mercator(-80.25, 45.5);
    const [xmin, ymin] = mercator(-87.612, 41.865);
    expect(layer.extent.xmin).toBeCloseTo(xmin, 0);
    expect(layer.extent.ymin).toBeCloseTo(ymin, 0);
    expect(layer.extent.xmax).toBeCloseTo(xmax, 0);
    expect(layer.extent.ymax).toBeCloseTo(ymax, 0);
  });

  it('with rollbackOnFailure a row the database refuses undoes every row and says which', async () => {
    const before = await byName();
    const item = await addCsv('Name,Kind,Lat,Lon\nGood One,pier,41.9,-87.6\nSouth Buoy,buoy,41.9,-87.6\n');
    const res = await append({ appendItemId: item, ...xy });
    expect(res.status).toBe('Failed');
    expect(res.addResults.map(outcome)).toEqual([
      { code: 1003, description: 'Operation rolled back.' },
      UNIQUE,
    ]);
    expect([...(await byName()).keys()].sort()).toEqual([...before.keys()].sort());
  });

  it('upserts on a unique field: updates by key beside adds, each update checked alone', async () => {
    const item = await addCsv('Name,Depth,Kind\nLock Station,8,lock\nSouth Buoy,99,buoy\nNew Spot,1,pier\n');
    const res = await append({
      appendItemId: item,
      upsert: true,
      upsertMatchingField: 'Name',
      rollbackOnFailure: false,
    });
    expect([res.status, res.addedCount, res.updatedCount, res.failedCount]).toEqual(['Completed', 1, 1, 1]);
    expect(res.updateResults.map((r: any) => [r.objectId, outcome(r)])).toEqual([
      [2, 'ok'],
      [3, outOfRange(99)],
    ]);
    const stored = await byName();
    expect(stored.get('Lock Station')!.attributes.Depth).toBe(8);
    expect(stored.get('South Buoy')!.attributes.Depth).toBe(12);
    const added = stored.get('New Spot')!;
    expect([added.attributes.OBJECTID, added.attributes.Depth, added.attributes.Visits]).toEqual([
      res.addResults[0].objectId,
      1,
      9,
    ]);
    // The update kept the shape it had: the source has no coordinates.
    expect(stored.get('Lock Station')!.geometry!.y).toBeCloseTo(41.888, 6);
  });
});
