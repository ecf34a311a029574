import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload, waitForJob } from './publish-client.js';

// towns.gdb.zip holds the towns data of ../sqlite (see make-fixture.sh), with a range domain on
// places.rank, a coded-value domain on roads.lanes, and roads in the feature dataset "network".
const FILE = 'file-geodatabase/towns.gdb.zip';

describe('publishing a zipped file geodatabase analyzed first', () => {
  let token: string;
  let name: string;
  let analyzed: Record<string, any>;
  let status: Record<string, any>;
  beforeAll(async () => {
    token = await signIn();
    analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'fileGeodatabase' },
      { name: 'towns.gdb.zip', path: fixture(FILE) },
    );
    name = uniqueName('towns_gdb');
    ({ status } = await publishFile(token, FILE, 'FILE', { ...analyzed.publishParameters, name }));
  }, 120_000);

  it('analyze lists the feature classes (the feature dataset flattened) and the table with counts', () => {
    const layers = analyzed.layers.map((l: any) => [l.name, l.type, l.recordCount]);
    expect(layers).toHaveLength(4);
    expect(new Set(layers.map((l: any[]) => l.join('|')))).toEqual(
      new Set([
        'places|Feature Layer|3',
        'roads|Feature Layer|2',
        'parcels|Feature Layer|2',
        'inspections|Table|3',
      ]),
    );
  });

  it('publishes every class, with coded-value and range domains on their fields', async () => {
    expect(status.status).toBe('completed');
    const service = (await call(featureServer(name), { token }, { method: 'GET' })).json;
    const ids = Object.fromEntries([...service.layers, ...service.tables].map((l: any) => [l.name, l.id]));
    const places = (await call(`${featureServer(name)}/${ids.places}`, { token }, { method: 'GET' })).json;
    expect(places.fields.find((f: any) => f.name === 'rank')).toMatchObject({
      type: 'esriFieldTypeSmallInteger',
      nullable: false,
      domain: { type: 'range', name: 'RankRange', range: [1, 10] },
    });
    expect(places.fields.find((f: any) => f.name === 'name')).toMatchObject({ length: 30, nullable: false });
    const roads = (await call(`${featureServer(name)}/${ids.roads}`, { token }, { method: 'GET' })).json;
    expect(roads.fields.find((f: any) => f.name === 'lanes').domain).toEqual({
      type: 'codedValue',
      name: 'LaneCount',
      codedValues: [
        { name: 'Two lanes', code: 2 },
        { name: 'Four lanes', code: 4 },
      ],
    });
  });

  it('edits obey the coded-value domain the geodatabase declared', async () => {
    const service = (await call(featureServer(name), { token }, { method: 'GET' })).json;
    const ids = Object.fromEntries([...service.layers, ...service.tables].map((l: any) => [l.name, l.id]));
    const admin = `/rest/admin/services/Hosted/${name}/FeatureServer/${ids.roads}`;
    const enabled = await call(`${admin}/updateDefinition`, {
      token,
      updateDefinition: JSON.stringify({ capabilities: 'Query,Update' }),
    });
    expect(enabled.json).toEqual({ success: true });
    const layer = `${featureServer(name)}/${ids.roads}`;
    const ring = (await call(`${layer}/query`, { token, where: "name = 'Ring road'", returnIdsOnly: 'true' }))
      .json.objectIds[0];
    const codes = [2, 4];
    const update = async (lanes: number) =>
      (
        await call(`${layer}/updateFeatures`, {
          token,
          features: JSON.stringify([{ attributes: { OBJECTID: ring, lanes } }]),
        })
      ).json.updateResults[0];
    const notCode = codes[0] + 1;
    expect(await update(notCode)).toMatchObject({
      success: false,
      error: {
        code: 1016,
        description: `Setting of value for lanes failed: ${notCode} is not one of the coded values of domain 'LaneCount'.`,
      },
    });
    expect(await update(codes[1])).toMatchObject({ objectId: ring, success: true });
  });

  it('rows come back with their values and coordinates', async () => {
    const service = (await call(featureServer(name), { token }, { method: 'GET' })).json;
    const ids = Object.fromEntries([...service.layers, ...service.tables].map((l: any) => [l.name, l.id]));
    const roads = (
      await call(`${featureServer(name)}/${ids.roads}/query`, {
        token,
        where: "name = 'Ring road'",
        outFields: 'name,lanes',
        outSR: '3857',
      })
    ).json;
    expect(roads.features[0].attributes).toMatchObject({ name: 'Ring road', lanes: 4 });
    expect(roads.features[0].geometry.paths).toEqual([
      [
        [1000, 2000],
        [1100, 2100],
        [1250, 2050],
      ],
      [
        [1300, 2000],
        [1400, 2000],
      ],
    ]);
    const places = (
      await call(`${featureServer(name)}/${ids.places}/query`, {
        token,
        where: "name = 'Paris'",
        outFields: 'name,population,area',
        outSR: '4326',
      })
    ).json;
    expect(places.features[0].attributes).toMatchObject({ name: 'Paris', population: 2102650, area: 105.4 });
    expect(places.features[0].geometry.x).toBeCloseTo(2.3522, 9);
    expect(places.features[0].geometry.y).toBeCloseTo(48.8566, 9);
    const count = (
      await call(`${featureServer(name)}/${ids.inspections}/query`, {
        token,
        where: '1=1',
        returnCountOnly: 'true',
      })
    ).json.count;
    expect(count).toBe(3);
  });
});

describe('a zip that is not a file geodatabase', () => {
  it('is refused by analyze, naming what the zip holds', async () => {
    const token = await signIn();
    const res = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'fileGeodatabase' },
      { name: 'wards.zip', path: fixture('wards-stateplane.zip') },
    );
    expect(res.error.code).toBe(400);
    expect(res.error.details[0]).toContain('The zip holds no file geodatabase');
    expect(res.error.details[0]).toContain('.shp');
  });

  it('a truncated zip fails with the reason and leaves no service behind', async () => {
    const token = await signIn();
    const cut = join(mkdtempSync(join(tmpdir(), 'gdb-')), 'cut.gdb.zip');
    writeFileSync(cut, readFileSync(fixture(FILE)).subarray(0, 9000));
    const owner = stack().admin.username;
    const name = uniqueName('towns_gdb_cut');
    const res = await upload(
      `/sharing/rest/content/users/${owner}/publish`,
      { token, filetype: 'fileGeodatabase', publishParameters: JSON.stringify({ name }) },
      { name: 'cut.gdb.zip', path: cut },
    );
    const service = res.services[0];
    const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
    expect(status.status).toBe('failed');
    expect(status.statusMessage).toContain('The file is not a readable zip');
    const layer = await call(`${featureServer(name)}/0`, { token }, { method: 'GET' });
    expect(layer.json.error.code).toBe(400);
  });
});

// aliased.gdb.zip: a table whose fields carry aliases, written by GDAL 3.8 (gdal3.js) from aliased.vrt
// and read back by Debian's ogrinfo 3.6 (see make-aliased-fixture.mjs beside it).
describe('a file geodatabase with field aliases', () => {
  it('keeps the aliases the geodatabase holds in the table JSON, and the rows', async () => {
    const token = await signIn();
    const name = uniqueName('aliased_gdb');
    const { status } = await publishFile(token, 'file-geodatabase/aliased.gdb.zip', 'fileGeodatabase', {
      name,
    });
    expect(status.status).toBe('completed');
    const service = (await call(featureServer(name), { token }, { method: 'GET' })).json;
    expect(service.layers).toEqual([]);
    expect(service.tables).toHaveLength(1);
    const table = (await call(`${featureServer(name)}/${service.tables[0].id}`, { token }, { method: 'GET' }))
      .json;
    const fields = Object.fromEntries(table.fields.map((f: any) => [f.name, f.alias]));
    expect(fields.name).toBe('Town name');
    expect(fields.pop).toBe('Population (2020)');
    const rows = (
      await call(`${featureServer(name)}/${service.tables[0].id}/query`, {
        token,
        where: '1=1',
        outFields: 'name,pop',
        orderByFields: 'pop',
      })
    ).json;
    expect(rows.features.map((f: any) => [f.attributes.name, f.attributes.pop])).toEqual([
      ['A', 10],
      ['B', 20],
    ]);
  }, 120_000);
});
