import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from './publish-client.js';

const analyzeFile = (token: string, file: string, filetype: string) =>
  upload('/sharing/rest/content/features/analyze', { token, filetype }, { name: file, path: fixture(file) });

describe('publishing a two-sheet workbook', () => {
  let token: string;
  let name: string;
  let analyzed: Record<string, any>;
  beforeAll(async () => {
    token = await signIn();
    analyzed = await analyzeFile(token, 'transit-two-sheets.xlsx', 'excel');
    name = uniqueName('transit');
    const { status } = await publishFile(token, 'transit-two-sheets.xlsx', 'excel', {
      ...analyzed.publishParameters,
      name,
    });
    expect(status.status).toBe('completed');
  });

  it('analyze proposes one layer per sheet with its own location columns', () => {
    const layers = analyzed.publishParameters.layers;
    expect(layers.map((l: any) => [l.excelSheetId, l.locationType])).toEqual([
      [0, 'coordinates'],
      [1, 'coordinates'],
    ]);
    expect([layers[1].latitudeFieldName, layers[1].longitudeFieldName]).toEqual(['Y', 'X']);
  });

  it('the service lists a layer per sheet', async () => {
    const service = (await call(featureServer(name), { token }, { method: 'GET' })).json;
    expect(service.layers.map((l: any) => l.id)).toEqual([0, 1]);
    expect(service.layers.every((l: any) => l.geometryType === 'esriGeometryPoint')).toBe(true);
  });

  it('sheet cells keep their types: dates as epoch milliseconds, numbers as numbers', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: "Station = 'Howard'",
      outFields: '*',
    });
    expect(res.json.features[0].attributes).toMatchObject({
      Line: 'Red',
      Riders: 7200,
      Opened: Date.UTC(1908, 4, 16),
    });
  });

  it('the second sheet loads its three depots', async () => {
    const res = await call(`${featureServer(name)}/1/query`, {
      token,
      where: 'Buses >= 200',
      returnCountOnly: 'true',
    });
    expect(res.json.count).toBe(2);
  });
});

describe('publishing GeoJSON with mixed property types', () => {
  let token: string;
  let name: string;
  let status: Record<string, any>;
  beforeAll(async () => {
    token = await signIn();
    name = uniqueName('parks');
    ({ status } = await publishFile(token, 'parks-mixed-properties.geojson', 'geojson', {
      name,
      persistErrorRecordsForReview: true,
    }));
  });

  it('publishes the polygons, keeps the feature without geometry without one and rejects the point', async () => {
    expect(status.status).toBe('completed');
    expect(status.rowsRejected).toBe(1);
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      outFields: 'name,acres',
      returnGeometry: 'true',
      orderByFields: 'OBJECTID',
    });
    const kept = res.json.features.filter((f: any) => f.geometry === null);
    expect(kept.map((f: any) => [f.attributes.name, f.attributes.acres])).toEqual([['No geometry', 2]]);
    expect(res.json.features.length).toBe(status.featureCount);
  });

  it('a property that is a number in one feature and text in another becomes a string field', async () => {
    const layer = (await call(`${featureServer(name)}/0`, { token }, { method: 'GET' })).json;
    const types = Object.fromEntries(layer.fields.map((f: any) => [f.name, f.type]));
    expect(types).toMatchObject({
      ward: 'esriFieldTypeString',
      acres: 'esriFieldTypeDouble',
      code: 'esriFieldTypeString',
    });
    expect(layer.geometryType).toBe('esriGeometryPolygon');
  });

  it('a polygon with a hole does not contain a point inside the hole', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      geometry: JSON.stringify({ x: -87.618, y: 41.875, spatialReference: { wkid: 4326 } }),
      geometryType: 'esriGeometryPoint',
      spatialRel: 'esriSpatialRelIntersects',
      outFields: 'name',
    });
    expect(res.json.features).toHaveLength(0);
  });

  it('returnExtentOnly in WGS84 covers the three parks', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      returnExtentOnly: 'true',
      outSR: '4326',
    });
    expect(res.json.extent.xmin).toBeCloseTo(-87.64, 6);
    expect(res.json.extent.ymax).toBeCloseTo(41.94, 6);
  });
});

describe('publishing a zipped polygon shapefile in Illinois State Plane feet', () => {
  let token: string;
  let name: string;
  beforeAll(async () => {
    token = await signIn();
    name = uniqueName('wards');
    const { status } = await publishFile(token, 'wards-stateplane.zip', 'shapefile', { name });
    expect(status.status).toBe('completed');
  });

  it('reprojects the .prj coordinates: the ward polygons land on Chicago in WGS84', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: 'WARD = 42',
      outFields: 'ALDERMAN',
      outSR: '4326',
      returnGeometry: 'true',
    });
    const ring = res.json.features[0].geometry.rings[0];
    expect(res.json.features[0].attributes.ALDERMAN).toBe('Brendan Reilly');
    expect(Math.min(...ring.map((p: number[]) => p[0]))).toBeCloseTo(-87.635, 4);
    expect(Math.max(...ring.map((p: number[]) => p[1]))).toBeCloseTo(41.895, 4);
  });

  it('reads the UTF-8 attribute text the .cpg declares', async () => {
    const res = await call(`${featureServer(name)}/0/query`, { token, where: 'WARD = 1', outFields: 'NOTE' });
    expect(res.json.features[0].attributes.NOTE).toBe('Wicker Park — Ukrainian Village');
  });

  it('a WGS84 envelope over the Loop finds ward 42 only (within the envelope)', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      geometry: JSON.stringify({
        xmin: -87.64,
        ymin: 41.87,
        xmax: -87.605,
        ymax: 41.8945,
        spatialReference: { wkid: 4326 },
      }),
      geometryType: 'esriGeometryEnvelope',
      spatialRel: 'esriSpatialRelIntersects',
      outFields: 'WARD',
      returnGeometry: 'false',
    });
    expect(res.json.features.map((f: any) => f.attributes.WARD)).toEqual([42]);
  });
});
