import { queryAllFeatures, queryFeatures } from '@esri/arcgis-rest-feature-service';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload, waitForJob } from './publish-client.js';

const publishPath = () => `/sharing/rest/content/users/${stack().admin.username}/publish`;
const csvParameters = (name: string) => ({
  name,
  locationType: 'coordinates',
  layerInfo: { capabilities: 'Query' },
});

describe('publish request rules', () => {
  let token: string;
  beforeAll(async () => {
    token = await signIn();
  });

  const publishCsv = (parameters: Record<string, unknown>, extra: Record<string, string> = {}) =>
    upload(
      publishPath(),
      { token, filetype: 'csv', publishParameters: JSON.stringify(parameters), ...extra },
      { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
    );

  it('a missing service name is refused before anything is created', async () => {
    const res = await publishCsv({ locationType: 'coordinates', layerInfo: {} });
    expect(res.error).toMatchObject({ code: 400, details: ["'name' is required."] });
  });

  it('an unknown locationType is refused with the allowed values', async () => {
    const res = await publishCsv({ name: uniqueName('x'), locationType: 'grid', layerInfo: { a: 1 } });
    expect(res.error.details[0]).toContain('coordinates, address, lookup, none');
  });

  it('an unknown targetSR is refused', async () => {
    const res = await publishCsv({ ...csvParameters(uniqueName('x')), targetSR: { wkid: 999999 } });
    expect(res.error.details[0]).toContain('targetSR');
  });

  it('a service name already taken is refused', async () => {
    const name = uniqueName('taken');
    await publishFile(token, 'chicago-libraries.csv', 'csv', csvParameters(name));
    const res = await publishCsv(csvParameters(name.toUpperCase()));
    expect(res.error.message).toBe(`Service name '${name.toUpperCase()}' already exists.`);
  });

  it('itemIdToCreate must be 32 letters or digits', async () => {
    const res = await publishCsv(csvParameters(uniqueName('x')), { itemIdToCreate: 'short' });
    expect(res.error.details[0]).toContain('32 letters or digits');
  });

  it('repeating a publish with the same itemIdToCreate returns the same job and does not run twice', async () => {
    const itemIdToCreate = `${Date.now().toString(16)}`.padEnd(32, 'a');
    const name = uniqueName('once');
    const first = await publishCsv(csvParameters(name), { itemIdToCreate });
    const second = await publishCsv(csvParameters(name), { itemIdToCreate });
    expect(first.services[0].serviceItemId).toBe(itemIdToCreate);
    expect(second.services[0]).toEqual(first.services[0]);
    const status = await waitForJob(token, stack().admin.username, itemIdToCreate, first.services[0].jobId);
    expect(status.status).toBe('completed');
    const count = await call(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      returnCountOnly: 'true',
    });
    expect(count.json.count).toBe(11);
  });

  it('a layer published without the Query capability refuses queries', async () => {
    const name = uniqueName('noquery');
    await publishFile(token, 'chicago-libraries.csv', 'csv', {
      name,
      locationType: 'coordinates',
      layerInfo: { capabilities: 'Create,Update' },
    });
    const res = await call(`${featureServer(name)}/0/query`, { token, where: '1=1' });
    expect(res.json.error.message).toBe('Requested operation is not supported by this service.');
  });

  it('a file with no usable row fails with a message a person can act on and leaves no service', async () => {
    const name = uniqueName('unusable');
    const { service, status } = await publishFile(token, 'no-usable-coordinates.csv', 'csv', {
      ...csvParameters(name),
      latitudeFieldName: 'lat',
      longitudeFieldName: 'lon',
    });
    expect(status.status).toBe('failed');
    const reason = JSON.parse(status.statusMessage);
    expect(reason.code).toBe(400);
    expect(reason.message).toContain('No row of the file could be published');
    expect(reason.message).toContain('Row 1: Invalid coordinates');
    const layer = await call(`${featureServer(name)}/0`, { token }, { method: 'GET' });
    expect(layer.json.error.code).toBe(400);
    const again = await publishFile(token, 'chicago-libraries.csv', 'csv', csvParameters(name));
    expect(again.status.status).toBe('completed');
    expect(again.service.serviceItemId).not.toBe(service.serviceItemId);
  });
});

describe('ArcGIS REST JS against a published layer', () => {
  let url: string;
  let authentication: ArcGISIdentityManager;
  beforeAll(async () => {
    const token = await signIn();
    // As rest-js users do: a portal session, which trades its token for the server's on first use.
    authentication = await ArcGISIdentityManager.signIn({
      username: stack().admin.username,
      password: stack().admin.password,
      portal: `${stack().baseUrl}/sharing/rest`,
    });
    const name = uniqueName('restjs');
    await publishFile(token, 'chicago-libraries.csv', 'csv', { ...csvParameters(name), maxRecordCount: 4 });
    url = `${stack().baseUrl}${featureServer(name)}/0`;
  });

  it('queryFeatures reads one page with exceededTransferLimit', async () => {
    const res = (await queryFeatures({
      url,
      authentication,
      where: "Name LIKE '%Branch'",
      outFields: ['Name'],
    })) as any;
    expect(res.features).toHaveLength(4);
    expect(res.exceededTransferLimit).toBe(true);
  });

  it('queryAllFeatures pages through every feature with resultOffset', async () => {
    const res = (await queryAllFeatures({
      url,
      authentication,
      where: '1=1',
      outFields: ['OBJECTID'],
    })) as any;
    expect(res.features.map((f: any) => f.attributes.OBJECTID)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12]);
  });

  it('outStatistics computes grouped sums', async () => {
    const res = (await queryFeatures({
      url,
      authentication,
      where: '1=1',
      outStatistics: [
        { statisticType: 'sum', onStatisticField: 'Visitors_2023', outStatisticFieldName: 'total' },
      ],
    })) as any;
    expect(res.features[0].attributes.total).toBe(2839769);
  });
});
