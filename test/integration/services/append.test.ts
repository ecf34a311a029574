import { beforeAll, describe, expect, it } from 'vitest';
import { EDITABLE, type EditableService, edit, features, publishStations } from '../editing/edit-client.js';
import { newUser } from '../portal/portal-helpers.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { followJob } from './job-client.js';

// stations.csv: OBJECTID 1 North Pier (pier, 41.8925/-87.6024), 2 Lock Station (lock), 3 South Buoy (buoy).
describe('FeatureServer/{layer}/append', () => {
  let token: string;
  let svc: EditableService;
  const owner = () => stack().admin.username;

  const addCsv = async (text: string, as = token, username = owner(), type = 'CSV') => {
    const added = await call(`/sharing/rest/content/users/${username}/addItem`, {
      token: as,
      type,
      title: `append source ${Date.now()}`,
      text,
    });
    if (!added.json.id) throw new Error(`addItem failed: ${added.text}`);
    return added.json.id as string;
  };
  const append = (params: Record<string, unknown>, as = token) => edit(`${svc.layer}/append`, as, params);
  const count = async () =>
    (await call(`${svc.layer}/query`, { token, where: '1=1', returnCountOnly: 'true' })).json.count;
  const byId = async (id: number) => (await features(svc, token, `OBJECTID = ${id}`))[0];

  beforeAll(async () => {
    token = await signIn();
    svc = await publishStations(token, EDITABLE);
  }, 120_000);

  it('is advertised by the layer with the formats it reads', async () => {
    const layer = (await call(svc.layer, { token }, { method: 'GET' })).json;
    expect([layer.supportsAppend, layer.supportedAppendFormats]).toEqual([
      true,
      'csv,excel,geojson,shapefile,featureCollection,sqlite,geoPackage,filegdb,serviceDefinition',
    ]);
  });

  it('adds CSV rows through fieldMappings, with points from appendSourceInfo coordinates', async () => {
    const item = await addCsv(
      'Station,Type,Lat,Lon,Depth\nEast Dock,dock,41.9,-87.6,3.5\nWest Gate,gate,41.88,-87.65,\n',
    );
    const res = await append({
      appendItemId: item,
      appendUploadFormat: 'csv',
      fieldMappings: [
        { name: 'Name', sourceName: 'Station' },
        { name: 'Kind', sourceName: 'Type' },
      ],
      appendSourceInfo: { locationType: 'coordinates', latitudeFieldName: 'Lat', longitudeFieldName: 'Lon' },
    });
    expect(res.status).toBe('Completed');
    expect(res.recordCount).toBe(2);
    expect(res.addResults.map((r: any) => [r.objectId, r.success])).toEqual([
      [4, true],
      [5, true],
    ]);
    const dock = await byId(4);
    expect([dock.attributes.Name, dock.attributes.Kind, dock.attributes.Depth]).toEqual([
      'East Dock',
      'dock',
      3.5,
    ]);
    expect(dock.geometry!.x).toBeCloseTo(-87.6, 6);
    expect(dock.geometry!.y).toBeCloseTo(41.9, 6);
    const gate = await byId(5);
    expect([gate.attributes.Name, gate.attributes.Kind, gate.attributes.Depth]).toEqual([
      'West Gate',
      'gate',
      null,
    ]);
    expect(await count()).toBe(5);
  });

  it('upserts on a field with a unique index: 2 rows update their features, 1 is added', async () => {
    const indexed = await edit(
      `/rest/admin/services/Hosted/${svc.name}/FeatureServer/0/addToDefinition`,
      token,
      {
        addToDefinition: { indexes: [{ name: 'append_kind', fields: 'Kind', isUnique: true }] },
      },
    );
    expect(indexed).toEqual({ success: true });
    const item = await addCsv(
      'Kind,Name,Visits,Lat,Lon\npier,Pier One,121,10,10\ngate,Gate Two,7,10,10\nferry,Ferry Stop,3,41.87,-87.61\n',
    );
    const res = await append({
      appendItemId: item,
      upsert: true,
      upsertMatchingField: 'Kind',
      updateGeometry: false,
      appendSourceInfo: { latitudeFieldName: 'Lat', longitudeFieldName: 'Lon' },
    });
    expect(res.status).toBe('Completed');
    expect(res.updateResults.map((r: any) => [r.objectId, r.success])).toEqual([
      [1, true],
      [5, true],
    ]);
    expect(res.addResults.map((r: any) => [r.objectId, r.success])).toEqual([[6, true]]);
    const pier = await byId(1);
    expect([pier.attributes.Name, pier.attributes.Visits, pier.attributes.Depth]).toEqual([
      'Pier One',
      121,
      4.5,
    ]);
    // updateGeometry=false: the pier keeps its point.
    expect(pier.geometry!.y).toBeCloseTo(41.8925, 6);
    expect([(await byId(5)).attributes.Name, (await byId(5)).attributes.Visits]).toEqual(['Gate Two', 7]);
    const ferry = await byId(6);
    expect([ferry.attributes.Name, ferry.attributes.Kind, ferry.attributes.Visits]).toEqual([
      'Ferry Stop',
      'ferry',
      3,
    ]);
    expect(ferry.geometry!.x).toBeCloseTo(-87.61, 6);
  });

  it('skipUpdates leaves matched features alone, skipInserts adds nothing', async () => {
    const item = await addCsv('OBJECTID,Name\n2,Not Applied\n,Skiff Ramp\n');
    const res = await append({ appendItemId: item, upsert: true, skipUpdates: true });
    expect([res.skippedCount, res.updateResults.length, res.addResults.length]).toEqual([1, 0, 1]);
    expect((await byId(2)).attributes.Name).toBe('Lock Station');
    expect((await byId(res.addResults[0].objectId)).attributes.Name).toBe('Skiff Ramp');
    const before = await count();
    const only = await append({
      appendItemId: await addCsv('OBJECTID,Name\n2,Lock Renamed\n,Never Added\n'),
      upsert: true,
      skipInserts: true,
    });
    expect([only.skippedCount, only.updateResults.length, only.addResults.length]).toEqual([1, 1, 0]);
    expect((await byId(2)).attributes.Name).toBe('Lock Renamed');
    expect(await count()).toBe(before);
  });

  it('appends a GeoJSON item: properties by name, points from its geometry', async () => {
    const geojson = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { Name: 'Geo Point', Kind: 'geo', Depth: 2.25 },
          geometry: { type: 'Point', coordinates: [-87.62, 41.95] },
        },
      ],
    };
    const item = await addCsv(JSON.stringify(geojson), token, owner(), 'GeoJson');
    const res = await append({ appendItemId: item, appendUploadFormat: 'geojson' });
    expect(res.status).toBe('Completed');
    const added = await byId(res.addResults[0].objectId);
    expect([added.attributes.Name, added.attributes.Kind, added.attributes.Depth]).toEqual([
      'Geo Point',
      'geo',
      2.25,
    ]);
    expect(added.geometry!.x).toBeCloseTo(-87.62, 6);
    expect(added.geometry!.y).toBeCloseTo(41.95, 6);
  });

  it('rolls everything back when one row cannot be written, and says which', async () => {
    const before = await count();
    const item = await addCsv('Name,Visits\nGood Row,5\nBad Row,many\n');
    const res = await append({ appendItemId: item });
    expect(res.status).toBe('Failed');
    expect(res.addResults.map((r: any) => [r.success, r.error.code])).toEqual([
      [false, 1003],
      [false, 1016],
    ]);
    expect(res.addResults[1].error.description).toMatch(/Visits/);
    expect(await count()).toBe(before);
    expect(await features(svc, token, "Name = 'Good Row'")).toEqual([]);
  });

  it('async=true answers a statusUrl that reports the result to the submitter only', async () => {
    const item = await addCsv('Name,Kind\nAsync Mooring,mooring\n');
    const res = await append({ appendItemId: item, async: true });
    expect(res.statusUrl).toMatch(
      new RegExp(`/rest/services/Hosted/${svc.name}/FeatureServer/jobs/[0-9a-f]{32}$`),
    );
    const path = res.statusUrl.replace(stack().baseUrl, '');
    const status = await followJob(res.statusUrl, token);
    expect([status.status, status.operation]).toEqual(['Completed', 'append']);
    expect(status.addResults).toHaveLength(1);
    expect((await byId(status.addResults[0].objectId)).attributes.Name).toBe('Async Mooring');
    const other = await newUser('org_publisher');
    expect((await call(path, { token: other.token }, { method: 'GET' })).json.error.code).toBe(403);
  });

  it('answers the refusal by the reader of a source it cannot read with a 400, adding nothing', async () => {
    const before = await count();
    const item = await addCsv('not really a geopackage', token, owner(), 'GeoPackage');
    const res = await append({ appendItemId: item });
    expect(res.error.code).toBe(400);
    expect(res.error.message).toBe('Unable to read the file.');
    expect(await count()).toBe(before);
  });

  it('refuses another user, a missing item and unknown parameters', async () => {
    const item = await addCsv('Name\nIntruder\n');
    const other = await newUser('org_publisher');
    const refused = await append({ appendItemId: item }, other.token);
    expect(refused.error.code).toBe(403);
    expect((await append({})).error.details[0]).toMatch(/appendItemId/);
    expect((await append({ appendItemId: item, magic: 1 })).error.details[0]).toBe(
      "'magic' is not a parameter of append.",
    );
    expect((await append({ appendItemId: 'f'.repeat(32) })).error.code).toBe(400);
    expect(await features(svc, token, "Name = 'Intruder'")).toEqual([]);
  });
});
