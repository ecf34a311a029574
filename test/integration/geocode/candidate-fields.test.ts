/**
 * candidateFieldsType AllFields keeps the locator's output fields (Status, Score, Match_addr,
 * Addr_type) in the published layer; standardizedFieldNames renames the address roles in the records
 * sent to another GeocodeServer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureServer, fixture, publishFile, uniqueName, upload } from '../publish/publish-client.js';
import { adminToken, call } from '../support/portal-client.js';
import { geocodeFixture } from './geocode-client.js';

const SERVICE = '/arcgis/rest/services/Parcels/GeocodeServer';

const rows = async (name: string, outFields: string) =>
  (
    await call(
      `${featureServer(name)}/0/query`,
      {
        token: await adminToken(),
        where: '1=1',
        outFields,
        orderByFields: 'OBJECTID',
        returnGeometry: 'false',
      },
      { method: 'GET' },
    )
  ).json.features.map((f: any) => f.attributes);

describe('candidateFieldsType AllFields with the embedded locator', () => {
  const name = uniqueName('city_halls_candidates');
  let layer: Record<string, any>;

  beforeAll(async () => {
    const token = await adminToken();
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'city-halls-addresses.csv', path: fixture('city-halls-addresses.csv') },
    );
    const { status } = await publishFile(token, 'city-halls-addresses.csv', 'csv', {
      ...analyzed.publishParameters,
      name,
      sourceCountry: 'US',
      candidateFieldsType: 'AllFields',
    });
    expect(status.status).toBe('completed');
    layer = (await call(`${featureServer(name)}/0`, { token }, { method: 'GET' })).json;
  }, 180_000);

  it('adds the output fields to the layer', () => {
    const types = Object.fromEntries(layer.fields.map((f: any) => [f.name, f.type]));
    expect(types).toMatchObject({
      Status: 'esriFieldTypeString',
      Score: 'esriFieldTypeDouble',
      Match_addr: 'esriFieldTypeString',
      Addr_type: 'esriFieldTypeString',
    });
  });

  it('stores what the locator said of each placed row', async () => {
    const [first] = await rows(name, 'name,Status,Score,Match_addr,Addr_type');
    expect(first.name).toBe('Chicago City Hall');
    expect(first.Status).toBe('M');
    expect(first.Score).toBeGreaterThanOrEqual(80);
    expect(first.Match_addr).toMatch(/Chicago/);
    expect(['PointAddress', 'StreetAddress', 'StreetName', 'PostalLoc', 'Locality']).toContain(
      first.Addr_type,
    );
  });
});

describe('standardizedFieldNames with another GeocodeServer', () => {
  const received: Record<string, unknown>[] = [];
  let server: Server;
  const name = uniqueName('offices_standardized');

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      res.setHeader('content-type', 'application/json');
      if (new URL(req.url ?? '/', 'http://x').pathname === SERVICE) {
        // The service's own names for the address parts (State is the data's column, not one of them).
        const addressFields = ['Street', 'Town', 'Region', 'ZIP'].map((n) => ({ name: n }));
        res.end(JSON.stringify({ locatorProperties: { MaxBatchSize: 10 }, addressFields }));
        return;
      }
      const records = JSON.parse(new URLSearchParams(body).get('addresses') ?? '{}').records as {
        attributes: Record<string, any>;
      }[];
      received.push(...records.map((r) => r.attributes));
      const locations = records.map(({ attributes: a }) => ({
        location: { x: -100 - a.OBJECTID, y: 40 },
        attributes: {
          ResultID: a.OBJECTID,
          Status: 'M',
          Score: 90 + a.OBJECTID,
          Match_addr: `${a.Street ?? ''}|${a.Town ?? ''}|${a.ZIP ?? ''}`,
          Addr_type: 'PointAddress',
        },
      }));
      res.end(JSON.stringify({ spatialReference: { wkid: 4326 }, locations }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const token = await adminToken();
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'offices.csv', path: geocodeFixture('offices.csv') },
    );
    const port = (server.address() as AddressInfo).port;
    const { status } = await publishFile(token, '../geocode/offices.csv', 'csv', {
      ...analyzed.publishParameters,
      name,
      geocodeServiceUrl: `http://127.0.0.1:${port}${SERVICE}`,
      standardizedFieldNames: { Address: 'street', City: 'Town', Region: 'State', Postal: 'ZIP' },
      candidateFieldsType: 'AllFields',
    });
    expect(status.status).toBe('completed');
  }, 180_000);

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the address roles under the service’s names', () => {
    const capitol = received.find((a) => a.OBJECTID === 1);
    expect(capitol).toMatchObject({
      Street: '120 W Washington Ave',
      Town: 'Madison',
      ZIP: '53703',
      Region: 'WI',
    });
    // Region keeps its standard name: 'State' is not among the service's fields.
    expect(received.some((a) => 'State' in a)).toBe(false);
    expect(received.some((a) => 'Address' in a || 'City' in a || 'Postal' in a)).toBe(false);
  });

  it('keeps that service’s score and matched address in the layer', async () => {
    const [capitol] = await rows(name, 'Name,Status,Score,Match_addr,Addr_type');
    expect(capitol).toMatchObject({
      Name: 'Capitol office',
      Status: 'M',
      Score: 91,
      Match_addr: '120 W Washington Ave|Madison|53703',
      Addr_type: 'PointAddress',
    });
  });
});
