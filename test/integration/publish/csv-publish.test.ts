import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from './publish-client.js';

describe('publishing a CSV of library branches through analyze, publish, status and query', () => {
  let token: string;
  let name: string;
  let analyzed: Record<string, any>;
  let published: Awaited<ReturnType<typeof publishFile>>;

  beforeAll(async () => {
    token = await signIn();
    analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
    );
    name = uniqueName('libraries');
    published = await publishFile(token, 'chicago-libraries.csv', 'csv', {
      ...analyzed.publishParameters,
      name,
      persistErrorRecordsForReview: true,
      maxRecordCount: 5,
      description: 'Chicago Public Library branches',
      copyrightText: 'City of Chicago',
    });
  }, 180_000);

  it('analyze finds the latitude/longitude columns and the field types', () => {
    const p = analyzed.publishParameters;
    expect(p.locationType).toBe('coordinates');
    expect([p.latitudeFieldName, p.longitudeFieldName]).toEqual(['Latitude', 'Longitude']);
    const types = Object.fromEntries(p.layerInfo.fields.map((f: any) => [f.name, f.type]));
    expect(types).toMatchObject({
      Name: 'esriFieldTypeString',
      Opened: 'esriFieldTypeDate',
      Visitors_2023: 'esriFieldTypeInteger',
      Rating: 'esriFieldTypeDouble',
    });
    expect(analyzed.records[0].Name).toBe('Harold Washington Library Center');
  });

  it('publish answers with a Feature Service entry whose job completes, one bad row rejected', () => {
    expect(published.service.type).toBe('Feature Service');
    expect(published.service.serviceurl).toBe(`${stack().baseUrl}${featureServer(name)}`);
    expect(published.service.serviceItemId).toMatch(/^[0-9a-f]{32}$/);
    expect(published.status.status).toBe('completed');
    expect(published.status.rowsRejected).toBe(1);
  });

  it('the layer resource carries the fields, the maxRecordCount and the extent in Web Mercator', async () => {
    const layer = (await call(`${featureServer(name)}/0`, { token }, { method: 'GET' })).json;
    expect(layer.geometryType).toBe('esriGeometryPoint');
    expect(layer.maxRecordCount).toBe(5);
    expect(layer.copyrightText).toBe('City of Chicago');
    expect(layer.fields[0]).toMatchObject({ name: 'OBJECTID', type: 'esriFieldTypeOID' });
    expect(layer.extent.spatialReference.latestWkid).toBe(3857);
    expect(layer.extent.xmin).toBeCloseTo(-9770035.26, 1);
  });

  it('a count query returns the eleven usable rows', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      returnCountOnly: 'true',
    });
    expect(res.json).toEqual({ count: 11 });
  });

  it('a where clause with a bound value filters on an integer field and pages by maxRecordCount', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: 'Visitors_2023 > 100000',
      outFields: 'Name,Visitors_2023',
      orderByFields: 'Visitors_2023 DESC',
      outSR: '4326',
    });
    expect(res.json.features.map((f: any) => f.attributes.Name)).toEqual([
      'Harold Washington Library Center',
      'Sulzer Regional Library',
      'Woodson Regional Library',
      'Chinatown Branch',
      'West Loop Branch',
    ]);
    expect(res.json.exceededTransferLimit).toBe(true);
    expect(res.json.features[0].geometry.x).toBeCloseTo(-87.62823, 5);
  });

  it('an envelope in WGS84 selects the branches inside it', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      geometry: '-87.70,41.85,-87.62,41.90',
      geometryType: 'esriGeometryEnvelope',
      inSR: '4326',
      spatialRel: 'esriSpatialRelIntersects',
      returnIdsOnly: 'true',
    });
    expect(res.json.objectIds).toEqual([1, 6, 12]);
  });

  it('f=geojson returns WGS84 features with properties', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: "Branch_Code = 'HWLC'",
      outFields: '*',
      f: 'geojson',
    });
    expect(res.json.type).toBe('FeatureCollection');
    expect(res.json.features[0].geometry.coordinates[1]).toBeCloseTo(41.87626, 5);
    expect(res.json.features[0].properties.Opened).toBe(Date.UTC(1991, 9, 7));
  });

  it('a where clause that overflows on the stored values is a 400, not a server error', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: 'POWER(Visitors_2023, 400) > 1',
    });
    expect(res.json.error.code).toBe(400);
  });
});
