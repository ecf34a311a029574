import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call, signIn } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from './publish-client.js';

describe('publishing addresses geocoded by the embedded locator', () => {
  let name: string;
  let analyzed: Record<string, any>;
  let status: Record<string, any>;

  beforeAll(async () => {
    const token = await signIn();
    analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'city-halls-addresses.csv', path: fixture('city-halls-addresses.csv') },
    );
    name = uniqueName('city_halls');
    ({ status } = await publishFile(token, 'city-halls-addresses.csv', 'csv', {
      ...analyzed.publishParameters,
      name,
      sourceCountry: 'US',
    }));
  }, 180_000);

  it('analyze proposes address location fields by their roles', () => {
    expect(analyzed.publishParameters.locationType).toBe('address');
    expect(analyzed.publishParameters.addressFields).toEqual({
      Address: 'street',
      City: 'city',
      Region: 'state',
      Postal: 'zip',
    });
    const roles = Object.fromEntries(
      analyzed.publishParameters.layerInfo.fields.map((f: any) => [f.name, f.locationType]),
    );
    expect(roles).toMatchObject({ city: 'City', state: 'Region' });
  });

  it('loads the addresses it matched and rejects the one it could not find', () => {
    expect(status.status).toBe('completed');
    expect(status.rowsRejected).toBe(1);
    expect(status.featureCount).toBe(3);
  });

  it('places the Springfield address in Springfield, Illinois', async () => {
    const res = await call(`${featureServer(name)}/0/query`, {
      token: await adminToken(),
      where: "city = 'Springfield'",
      outSR: '4326',
      outFields: 'name',
    });
    const { x, y } = res.json.features[0].geometry;
    expect(x).toBeCloseTo(-89.65, 0);
    expect(y).toBeCloseTo(39.8, 0);
  });
});
