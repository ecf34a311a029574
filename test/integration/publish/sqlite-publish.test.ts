import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload, waitForJob } from './publish-client.js';

// Fixtures: ogr2ogr made towns.gpkg, towns-spatialite.sqlite and towns-wkb.sqlite from the CSV files
// in test/fixtures/publish/sqlite (see fixtures.vrt there); the expected values below are those CSVs'.
const file = (name: string) => `sqlite/${name}`;

const query = async (token: string, url: string, params: Record<string, string>) =>
  (await call(`${url}/query`, { token, outFields: '*', orderByFields: 'OBJECTID', ...params })).json;

describe('publishing a GeoPackage analyzed first', () => {
  let token: string;
  let name: string;
  let analyzed: Record<string, any>;
  let status: Record<string, any>;
  beforeAll(async () => {
    token = await signIn();
    analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'GeoPackage' },
      { name: 'towns.gpkg', path: fixture(file('towns.gpkg')) },
    );
    name = uniqueName('towns_gpkg');
    ({ status } = await publishFile(token, file('towns.gpkg'), 'geoPackage', {
      ...analyzed.publishParameters,
      name,
    }));
  });

  it('analyze lists every table with its geometry, z, record count and extent', () => {
    expect(
      analyzed.layers.map((l: any) => [
        l.id,
        l.name,
        l.type,
        l.geometryType ?? null,
        l.hasZ ?? null,
        l.recordCount,
      ]),
    ).toEqual([
      [0, 'places', 'Feature Layer', 'esriGeometryPoint', true, 3],
      [1, 'roads', 'Feature Layer', 'esriGeometryPolyline', false, 2],
      [2, 'parcels', 'Feature Layer', 'esriGeometryPolygon', false, 2],
      [3, 'inspections', 'Table', null, null, 3],
    ]);
    expect(analyzed.layers[0].extent).toEqual({
      xmin: -0.1276,
      ymin: 48.8566,
      xmax: 13.405,
      ymax: 52.52,
      spatialReference: { wkid: 4326 },
    });
    expect(analyzed.layers[2].spatialReference).toEqual({ wkid: 32633 });
  });

  it('analyze gives the declared field types, lengths and nullability', () => {
    const fields = analyzed.publishParameters.layers[0].fields.map((f: any) => [
      f.name,
      f.type,
      f.length ?? null,
      f.nullable,
    ]);
    expect(fields).toEqual([
      ['name', 'esriFieldTypeString', 30, false],
      ['population', 'esriFieldTypeBigInteger', null, true],
      ['area', 'esriFieldTypeDouble', null, true],
      ['founded', 'esriFieldTypeDate', 8, true],
      ['updated', 'esriFieldTypeDate', 8, true],
      ['rank', 'esriFieldTypeSmallInteger', null, false],
      ['active', 'esriFieldTypeSmallInteger', null, true],
    ]);
  });

  it('publishes three layers and one table', async () => {
    expect(status.status).toBe('completed');
    const service = (await call(featureServer(name), { token }, { method: 'GET' })).json;
    expect(service.layers.map((l: any) => [l.id, l.name, l.geometryType])).toEqual([
      [0, 'places', 'esriGeometryPoint'],
      [1, 'roads', 'esriGeometryPolyline'],
      [2, 'parcels', 'esriGeometryPolygon'],
    ]);
    expect(service.tables.map((t: any) => [t.id, t.name])).toEqual([[3, 'inspections']]);
  });

  it('points keep their attributes and WGS84 coordinates', async () => {
    const res = await query(token, `${featureServer(name)}/0`, { where: '1=1', outSR: '4326' });
    expect(res.features.map((f: any) => f.attributes)).toEqual([
      {
        OBJECTID: 1,
        name: 'Berlin',
        population: 3664088,
        area: 891.8,
        founded: Date.UTC(1237, 0, 1),
        updated: Date.UTC(2024, 4, 1, 10, 30),
        rank: 1,
        active: 1,
      },
      {
        OBJECTID: 2,
        name: 'London',
        population: null,
        area: 1572,
        founded: Date.UTC(1066, 11, 25),
        updated: Date.UTC(2023, 11, 31, 23, 59, 59),
        rank: 2,
        active: 0,
      },
      {
        OBJECTID: 3,
        name: 'Paris',
        population: 2102650,
        area: 105.4,
        founded: null,
        updated: null,
        rank: 3,
        active: 1,
      },
    ]);
    const xy = res.features.map((f: any) => [f.geometry.x, f.geometry.y]);
    const expected = [
      [13.405, 52.52],
      [-0.1276, 51.5072],
      [2.3522, 48.8566],
    ];
    xy.forEach(([x, y]: number[], i: number) => {
      expect(x).toBeCloseTo(expected[i][0], 9);
      expect(y).toBeCloseTo(expected[i][1], 9);
    });
  });

  it('multi-part lines in Web Mercator keep their exact vertices', async () => {
    const res = await query(token, `${featureServer(name)}/1`, {
      where: "name = 'Ring road'",
      outSR: '3857',
    });
    expect(res.features[0].attributes.lanes).toBe(4);
    expect(res.features[0].geometry.paths).toEqual([
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
  });

  it('polygons in UTM 33N are projected and come back to their coordinates, hole kept', async () => {
    const res = await query(token, `${featureServer(name)}/2`, { where: "owner = 'Meyer'", outSR: '32633' });
    const rings: number[][][] = res.features[0].geometry.rings;
    expect(rings).toHaveLength(2);
    const corners = rings.flat().map(([x, y]) => [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000]);
    expect(new Set(corners.map((c) => c.join(' ')))).toEqual(
      new Set([
        '500000 5800000',
        '500100 5800000',
        '500100 5800100',
        '500000 5800100',
        '500020 5800020',
        '500020 5800040',
        '500040 5800040',
        '500040 5800020',
      ]),
    );
  });

  it('the attribute table loads its rows, empty text as null', async () => {
    const res = await query(token, `${featureServer(name)}/3`, { where: '1=1' });
    expect(res.features.map((f: any) => f.attributes)).toEqual([
      { OBJECTID: 1, parcel: 1, note: 'roof checked', score: 4.5 },
      { OBJECTID: 2, parcel: 2, note: null, score: 3.25 },
      { OBJECTID: 3, parcel: 1, note: 'fence repaired', score: 5 },
    ]);
  });
});

describe('publishing SQLite databases written by GDAL', () => {
  let token: string;
  beforeAll(async () => {
    token = await signIn();
  });

  it('a SpatiaLite database (compressed geometries) publishes the one table `layers` lists', async () => {
    const name = uniqueName('roads_spatialite');
    const { status } = await publishFile(token, file('towns-spatialite.sqlite'), 'sqlite', {
      name,
      layers: [{ id: 1, name: 'roads' }],
    });
    expect(status.status).toBe('completed');
    const service = (await call(featureServer(name), { token }, { method: 'GET' })).json;
    expect(service.layers.map((l: any) => [l.id, l.name])).toEqual([[1, 'roads']]);
    expect(service.tables).toEqual([]);
    const res = await query(token, `${featureServer(name)}/1`, { where: '1=1', outSR: '3857' });
    expect(res.features.map((f: any) => [f.attributes.name, f.attributes.lanes, f.geometry.paths])).toEqual([
      [
        'Ring road',
        4,
        [
          [
            [1000, 2000],
            [1100, 2100],
            [1250, 2050],
          ],
          [
            [1300, 2000],
            [1400, 2000],
          ],
        ],
      ],
      [
        'Spur',
        2,
        [
          [
            [-500, -500],
            [-400, -300],
          ],
        ],
      ],
    ]);
  });

  it('a plain SQLite database of WKB (filetype sqliteGeodatabase, any case) publishes every table', async () => {
    const name = uniqueName('towns_wkb');
    const { status } = await publishFile(token, file('towns-wkb.sqlite'), 'SQLITEGEODATABASE', { name });
    expect(status.status).toBe('completed');
    const counts = [];
    for (const id of [0, 1, 2, 3]) {
      counts.push(
        (await call(`${featureServer(name)}/${id}/query`, { token, where: '1=1', returnCountOnly: 'true' }))
          .json.count,
      );
    }
    expect(counts).toEqual([3, 2, 2, 3]);
    const layer = (await call(`${featureServer(name)}/0`, { token }, { method: 'GET' })).json;
    expect(layer.fields.find((f: any) => f.name === 'population').type).toBe('esriFieldTypeBigInteger');
    expect(layer.fields.find((f: any) => f.name === 'name')).toMatchObject({ length: 30, nullable: false });
  });

  it('a GeoPackage item added to the portal publishes by itemid', async () => {
    const owner = stack().admin.username;
    const added = await upload(
      `/sharing/rest/content/users/${owner}/addItem`,
      { token, type: 'GeoPackage', title: 'Towns' },
      { name: 'towns.gpkg', path: fixture(file('towns.gpkg')) },
    );
    expect(added.success).toBe(true);
    // Analyze reads the item's data from the store (copied to a temporary file, read page by page).
    const analyzedItem = (
      await call('/sharing/rest/content/features/analyze', {
        token,
        itemid: added.id,
        filetype: 'geoPackage',
      })
    ).json;
    expect(analyzedItem.layers.map((l: any) => [l.name, l.recordCount])).toEqual([
      ['places', 3],
      ['roads', 2],
      ['parcels', 2],
      ['inspections', 3],
    ]);
    const name = uniqueName('towns_item');
    const published = await call(`/sharing/rest/content/users/${owner}/publish`, {
      token,
      itemid: added.id,
      filetype: 'geopackage',
      publishParameters: JSON.stringify({ name, layers: [{ id: 3 }] }),
    });
    const service = published.json.services[0];
    const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
    expect(status.status).toBe('completed');
    const res = await query(token, `${featureServer(name)}/3`, { where: 'score > 4' });
    expect(res.features.map((f: any) => f.attributes.note)).toEqual(['roof checked', 'fence repaired']);
  });

  it('a truncated GeoPackage fails with the reason and leaves no service behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpkg-'));
    const cut = join(dir, 'cut.gpkg');
    writeFileSync(cut, readFileSync(fixture(file('towns.gpkg'))).subarray(0, 40_000));
    const owner = stack().admin.username;
    const name = uniqueName('towns_cut');
    const res = await upload(
      `/sharing/rest/content/users/${owner}/publish`,
      { token, filetype: 'geoPackage', publishParameters: JSON.stringify({ name }) },
      { name: 'cut.gpkg', path: cut },
    );
    const service = res.services[0];
    const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
    expect(status.status).toBe('failed');
    expect(JSON.parse(status.statusMessage).message).toContain('The database is truncated');
    const layer = await call(`${featureServer(name)}/0`, { token }, { method: 'GET' });
    expect(layer.json.error.code).toBe(400);
  });

  it('a file that is not a database is refused by analyze with the reason', async () => {
    const res = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'sqlite' },
      { name: 'libraries.gpkg', path: fixture('chicago-libraries.csv') },
    );
    expect(res.error.code).toBe(400);
    expect(res.error.details).toEqual([
      'The file is not a SQLite database or GeoPackage (no SQLite header).',
    ]);
  });
});
