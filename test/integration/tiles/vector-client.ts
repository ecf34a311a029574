/** Publishing the cities fixture as a feature service and as vector tiles from it, for the vector tile tests. */
import { expect } from 'vitest';
import { uniqueName, upload, waitForJob } from '../publish/publish-client.js';
import { adminToken, call, stack } from '../support/portal-client.js';
import { tilesFixture } from './tile-client.js';

/** The features of cities.geojson, as the file holds them. */
export const CITIES = [
  { city: 'Chicago', pop: 2700000, lon: -87.6, lat: 41.9 },
  { city: 'Pilsen', pop: 40000, lon: -87.65, lat: 41.85 },
  { city: 'New York', pop: 8300000, lon: -74.0, lat: 40.7 },
  { city: 'Paris', pop: 2100000, lon: 2.35, lat: 48.85 },
  { city: 'Tokyo', pop: 14000000, lon: 139.7, lat: 35.7 },
];

/** The point's place in the XYZ grid of level z, as fractional tile numbers (spherical Mercator). */
export function gridPosition(lon: number, lat: number, z: number) {
  const n = 2 ** z;
  const phi = (lat * Math.PI) / 180;
  return {
    fx: ((lon + 180) / 360) * n,
    fy: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * n,
  };
}

/** Publishes cities.geojson (editable) and a Vector Tile Service of levels 0..maxLevel from it. */
export async function publishCityTiles(base: string, maxLevel: number) {
  const token = await adminToken();
  const owner = stack().admin.username;
  const sourceName = uniqueName(base);
  const published = await upload(
    `/sharing/rest/content/users/${owner}/publish`,
    {
      token,
      filetype: 'geojson',
      publishParameters: JSON.stringify({
        name: sourceName,
        layerInfo: { capabilities: 'Query,Create,Update,Delete,Editing' },
      }),
    },
    { name: 'cities.geojson', path: tilesFixture('cities.geojson') },
  );
  const source = published.services[0];
  expect((await waitForJob(token, owner, source.serviceItemId, source.jobId)).status).toBe('completed');
  const layer = await call(`/rest/services/Hosted/${sourceName}/FeatureServer/0`, { token });
  const name = uniqueName(`${base}_tiles`);
  const response = await upload(`/sharing/rest/content/users/${owner}/publish`, {
    token,
    itemid: source.serviceItemId,
    filetype: 'featureService',
    outputType: 'VectorTiles',
    publishParameters: JSON.stringify({ name, levels: `0-${maxLevel}` }),
  });
  const entry = response.services[0];
  const status = await waitForJob(token, owner, entry.serviceItemId, entry.jobId, 180_000);
  expect(status.status).toBe('completed');
  return {
    token,
    sourceName,
    layerName: layer.json.name as string,
    name,
    response,
    url: `${stack().baseUrl}/rest/services/Hosted/${name}/VectorTileServer`,
  };
}
