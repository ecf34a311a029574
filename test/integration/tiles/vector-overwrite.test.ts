/**
 * Overwriting the feature service a vector tile service was built from rebuilds the vector tiles: the
 * new data's point appears in its tile and the old point's tile goes (tile addresses computed here).
 */
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName, waitForJob } from '../publish/publish-client.js';
import { adminToken, call, stack } from '../support/portal-client.js';
import { gridPosition } from './vector-client.js';

const OLD = { lon: -87.6, lat: 41.9, city: 'Chicago' };
const NEW = { lon: 151.2, lat: -33.87, city: 'Sydney' };
const LEVEL = 3;
const geojson = (p: typeof OLD) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { city: p.city },
        geometry: { type: 'Point', coordinates: [p.lon, p.lat] },
      },
    ],
  });

describe('overwriting the source of a vector tile service', () => {
  let token: string;
  let base: string;
  const tileOf = (p: typeof OLD) => {
    const { fx, fy } = gridPosition(p.lon, p.lat, LEVEL);
    return `${base}/tile/${LEVEL}/${Math.floor(fy)}/${Math.floor(fx)}.pbf?token=${token}`;
  };
  const waitStatus = async (url: string, status: number) => {
    let res = await fetch(url);
    for (let i = 0; i < 150 && res.status !== status; i++) {
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 300));
      res = await fetch(url);
    }
    return res;
  };

  beforeAll(async () => {
    token = await adminToken();
    const owner = stack().admin.username;
    const name = uniqueName('vt_over_src');
    const added = await call(`/sharing/rest/content/users/${owner}/addItem`, {
      token,
      type: 'GeoJson',
      title: name,
      text: geojson(OLD),
    });
    const itemId = added.json.id as string;
    const publish = (overwrite: boolean) =>
      call(`/sharing/rest/content/users/${owner}/publish`, {
        token,
        itemid: itemId,
        filetype: 'geojson',
        ...(overwrite ? { overwrite: 'true' } : {}),
        publishParameters: JSON.stringify({ name }),
      });
    const source = (await publish(false)).json.services[0];
    expect((await waitForJob(token, owner, source.serviceItemId, source.jobId)).status).toBe('completed');
    const tilesName = uniqueName('vt_over_tiles');
    const vector = await call(`/sharing/rest/content/users/${owner}/publish`, {
      token,
      itemid: source.serviceItemId,
      filetype: 'featureService',
      outputType: 'VectorTiles',
      publishParameters: JSON.stringify({ name: tilesName, levels: `0-${LEVEL}` }),
    });
    const entry = vector.json.services[0];
    expect((await waitForJob(token, owner, entry.serviceItemId, entry.jobId, 180_000)).status).toBe(
      'completed',
    );
    base = `${stack().baseUrl}/rest/services/Hosted/${tilesName}/VectorTileServer`;
    const before = await fetch(tileOf(OLD));
    expect(before.status).toBe(200);
    await before.arrayBuffer();

    const updated = await call(`/sharing/rest/content/users/${owner}/items/${itemId}/update`, {
      token,
      text: geojson(NEW),
    });
    expect(updated.json.success).toBe(true);
    const again = (await publish(true)).json.services?.[0];
    expect((await waitForJob(token, owner, again.serviceItemId, again.jobId)).status).toBe('completed');
  }, 240_000);

  it('builds the new point into its tile', async () => {
    const res = await waitStatus(tileOf(NEW), 200);
    expect(res.status).toBe(200);
    const layer = Object.values(
      new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer()))).layers,
    )[0];
    expect(layer.length).toBe(1);
    expect(layer.feature(0).properties.city).toBe('Sydney');
  }, 60_000);

  it('drops the tile of the old point', async () => {
    const res = await waitStatus(tileOf(OLD), 404);
    expect(res.status).toBe(404);
  }, 60_000);
});
