import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload, waitForJob } from './publish-client.js';

// The fixture is the `layers` JSON a web map keeps for a Feature Collection; expected values are its own.
const FILE = 'feature-collection/stops-and-zones.json';

describe('publishing a feature collection file analyzed first', () => {
  let token: string;
  let name: string;
  let analyzed: Record<string, any>;
  let status: Record<string, any>;
  beforeAll(async () => {
    token = await signIn();
    analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'featureCollection' },
      { name: 'stops.json', path: fixture(FILE) },
    );
    name = uniqueName('stops_fc');
    ({ status } = await publishFile(token, FILE, 'FeatureCollection', {
      ...analyzed.publishParameters,
      name,
    }));
  });

  it('analyze lists both layers with geometry type, record count and extent', () => {
    expect(analyzed.layers.map((l: any) => [l.id, l.name, l.geometryType, l.recordCount])).toEqual([
      [0, 'Stops', 'esriGeometryPoint', 3],
      [1, 'Fare zones', 'esriGeometryPolygon', 2],
    ]);
    expect(analyzed.layers[0].extent).toEqual({
      xmin: 999000,
      ymin: 5999000,
      xmax: 1000500.5,
      ymax: 6000250.25,
      spatialReference: { wkid: 102100, latestWkid: 3857 },
    });
    expect(analyzed.publishParameters.layers[0].drawingInfo.renderer.type).toBe('uniqueValue');
  });

  it('the layers keep the collection fields, aliases, nullability and drawing information', async () => {
    expect(status.status).toBe('completed');
    const layer = (await call(`${featureServer(name)}/0`, { token }, { method: 'GET' })).json;
    expect(layer.name).toBe('Stops');
    expect(layer.fields.map((f: any) => [f.name, f.type, f.alias, f.nullable])).toEqual([
      ['OBJECTID', 'esriFieldTypeOID', 'OBJECTID', false],
      ['stop_name', 'esriFieldTypeString', 'Stop name', false],
      ['kind', 'esriFieldTypeString', 'Kind', true],
      ['boardings', 'esriFieldTypeInteger', 'Daily boardings', true],
      ['opened', 'esriFieldTypeDate', 'Opened', true],
    ]);
    expect(layer.displayField).toBe('stop_name');
    expect(layer.drawingInfo.renderer.uniqueValueInfos.map((u: any) => u.value)).toEqual(['bus', 'tram']);
    expect(layer.drawingInfo.transparency).toBe(10);
  });

  it('points come back with their attributes and exact Web Mercator coordinates', async () => {
    const res = (
      await call(`${featureServer(name)}/0/query`, {
        token,
        where: '1=1',
        outFields: '*',
        orderByFields: 'OBJECTID',
      })
    ).json;
    expect(
      res.features.map((f: any) => [
        f.attributes.stop_name,
        f.attributes.boardings,
        f.attributes.opened,
        f.geometry.x,
        f.geometry.y,
      ]),
    ).toEqual([
      ['Main St', 1250, 1262304000000, 1000000, 6000000],
      ['Harbour', 830, null, 1000500.5, 6000250.25],
      ['Depot', null, 946684800000, 999000, 5999000],
    ]);
  });

  it('polygons in WGS84 are projected; the feature without geometry is kept without one', async () => {
    const res = (
      await call(`${featureServer(name)}/1/query`, {
        token,
        where: '1=1',
        outFields: 'zone,price',
        outSR: '4326',
        orderByFields: 'OBJECTID',
      })
    ).json;
    expect(
      res.features.map((f: any) => [f.attributes.zone, f.attributes.price, f.geometry === null]),
    ).toEqual([
      [1, 2.5, false],
      [2, 3.75, true],
    ]);
    expect(status.rowsRejected).toBe(0);
    const ring: number[][] = res.features[0].geometry.rings[0];
    const corners = new Set(ring.map(([x, y]) => `${x.toFixed(9)} ${y.toFixed(9)}`));
    expect(corners).toEqual(
      new Set([
        '8.000000000 53.000000000',
        '8.000000000 54.000000000',
        '9.000000000 54.000000000',
        '9.000000000 53.000000000',
      ]),
    );
  });
});

describe('publishing a feature collection sent as text', () => {
  it('filetype feature publishes the JSON in the text parameter', async () => {
    const token = await signIn();
    const owner = stack().admin.username;
    const name = uniqueName('zones_text');
    const published = await call(`/sharing/rest/content/users/${owner}/publish`, {
      token,
      filetype: 'feature',
      text: readFileSync(fixture(FILE), 'utf8'),
      publishParameters: JSON.stringify({ name, layers: [{ id: 1, name: 'zones' }] }),
    });
    const service = published.json.services[0];
    const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
    expect(status.status).toBe('completed');
    const info = (await call(featureServer(name), { token }, { method: 'GET' })).json;
    expect(info.layers.map((l: any) => [l.id, l.name])).toEqual([[1, 'zones']]);
    const count = (
      await call(`${featureServer(name)}/1/query`, { token, where: 'price > 2', returnCountOnly: 'true' })
    ).json.count;
    // Both zones, the one without a geometry too, as from the file.
    expect(count).toBe(2);
  });

  it('JSON that is not a feature collection is refused by analyze with the reason', async () => {
    const token = await signIn();
    const res = await call('/sharing/rest/content/features/analyze', {
      token,
      filetype: 'featureCollection',
      text: JSON.stringify({ type: 'FeatureCollection', features: [] }),
    });
    expect(res.json.error.code).toBe(400);
    expect(res.json.error.details[0]).toContain('not a feature collection');
  });
});
