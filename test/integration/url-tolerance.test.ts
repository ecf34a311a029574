import { getLayer, getService, queryFeatures } from '@esri/arcgis-rest-feature-service';
import { ApiKeyManager } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStations } from './editing/edit-client.js';
import { adminToken, stack } from './support/portal-client.js';

/** The URLs clients build, as ArcGIS Server accepts them: trailing and repeated slashes, any case. */
describe('URL tolerance as ArcGIS Server has it', () => {
  let token: string;
  let name: string;
  let url: string;

  beforeAll(async () => {
    token = await adminToken();
    const svc = await publishStations(token, {});
    name = svc.name;
    url = svc.url;
  }, 120_000);

  const get = (path: string, init: RequestInit = {}) => fetch(`${stack().baseUrl}${path}`, init);
  const json = async (res: Response): Promise<any> => res.json();

  it('answers …/FeatureServer/0/?f=json and …/FeatureServer/?f=json as esri-leaflet asks', async () => {
    const layer = await json(
      await get(`/rest/services/Hosted/${name}/FeatureServer/0/?f=json&token=${token}`),
    );
    expect(layer.id).toBe(0);
    expect(layer.fields.map((f: { name: string }) => f.name)).toContain('Name');
    const service = await json(
      await get(`/rest/services/Hosted/${name}/FeatureServer/?f=json&token=${token}`),
    );
    expect(service.layers).toEqual([expect.objectContaining({ id: 0 })]);
  });

  it('reads repeated slashes as one', async () => {
    const res = await get(
      `//rest//services/Hosted//${name}//FeatureServer//0//query?where=1%3D1&f=json&token=${token}`,
    );
    const body = await json(res);
    expect(body.features).toHaveLength(3);
  });

  it('matches the folder, the service name and the service type in any case', async () => {
    const res = await get(
      `/rest/services/hosted/${name.toUpperCase()}/featureserver/0/query?where=1%3D1&returnCountOnly=true&f=json&token=${token}`,
    );
    expect(await json(res)).toEqual({ count: 3 });
    const listing = await json(await get(`/rest/services/HOSTED?f=json&token=${token}`));
    expect(listing.services).toContainEqual({ name: `Hosted/${name}`, type: 'FeatureServer' });
    const wsdl = await get(`/services/hosted/${name}/mapserver?wsdl&token=${token}`);
    expect(wsdl.status).toBe(200);
    expect(await wsdl.text()).toContain(`<service name="${name}_MapServer">`);
  });

  it('answers JSON when f is missing, and JSONP with callback', async () => {
    const plain = await get(`/rest/services/Hosted/${name}/FeatureServer/0?token=${token}`);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await json(plain)).name).toBeTypeOf('string');
    const jsonp = await get(
      `/rest/services/Hosted/${name}/FeatureServer/0/query/?where=1%3D1&returnCountOnly=true&callback=cb.x_1&token=${token}`,
    );
    expect(jsonp.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(await jsonp.text()).toBe('cb.x_1({"count":3});');
  });

  it('answers HEAD on GET routes with the headers and no body', async () => {
    for (const path of [
      `/rest/services/Hosted/${name}/FeatureServer/0/?f=json&token=${token}`,
      `/rest/services/Hosted/${name}/FeatureServer/0/query?where=1%3D1&f=json&token=${token}`,
      '/rest/info?f=json',
      '/rest/services/',
      '/sharing/rest/info?f=json',
    ]) {
      const res = await get(path, { method: 'HEAD' });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(await res.text(), path).toBe('');
    }
    expect((await get('/rest/nothing/here', { method: 'HEAD' })).status).toBe(404);
  });

  it('serves @esri/arcgis-rest-feature-service given URLs ending in a slash', async () => {
    const authentication = ApiKeyManager.fromKey(token);
    const service = await getService({ url: `${url}/`, authentication });
    expect(service.layers?.map((l) => l.id)).toEqual([0]);
    const layer = await getLayer({ url: `${url}/0/`, authentication });
    expect(layer.name).toBeTypeOf('string');
    const result = await queryFeatures({
      url: `${url}/0/`,
      where: "Kind = 'pier'",
      outFields: ['Name'],
      authentication,
    });
    expect('features' in result && result.features.map((f) => f.attributes.Name)).toEqual(['North Pier']);
  });
});
