/**
 * itemIdToCreate on tile publishes (a Map Service from a feature service, and a tile package): the
 * new item takes the client's id, a repeated request answers with the job it started, and an id that
 * is taken or malformed is refused as on feature publishes.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName, upload, waitForJob } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { fetchTile, pixelOf, publishFeatures, tilesFixture } from './tile-client.js';

const owner = () => stack().admin.username;

describe('itemIdToCreate on a Map Service published from a feature service', () => {
  const name = uniqueName('chosen_id_tiles');
  const chosen = randomBytes(16).toString('hex');
  let token: string;
  let featureId: string;
  const request = (itemIdToCreate: string, serviceName = name) =>
    upload(`/sharing/rest/content/users/${owner()}/publish`, {
      token,
      itemid: featureId,
      filetype: 'featureService',
      outputType: 'Tiles',
      itemIdToCreate,
      publishParameters: JSON.stringify({ name: serviceName, levels: '11-11' }),
    });
  let first: Record<string, any>;
  let again: Record<string, any>;
  let status: Record<string, any>;

  beforeAll(async () => {
    token = await signIn();
    featureId = (await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('chosen_src')))
      .serviceItemId;
    first = await request(chosen);
    again = await request(chosen);
    status = await waitForJob(token, owner(), chosen, first.services[0].jobId, 120_000);
  }, 240_000);

  it('creates the Map Service item under the chosen id and builds its cache', async () => {
    expect(first.services[0]).toMatchObject({ type: 'Map Service', serviceItemId: chosen });
    expect(status.status).toBe('completed');
    const item = await call(`/sharing/rest/content/items/${chosen}`, { token }, { method: 'GET' });
    expect(item.json.type).toBe('Map Service');
    const { tile } = pixelOf(-87.6, 41.9, 11);
    expect((await fetchTile(name, 11, tile.row, tile.col)).status).toBe(200);
  });

  it('answers a repeated request with the job it started, not a second service', () => {
    expect(again.services[0].jobId).toBe(first.services[0].jobId);
    expect(again.services[0].serviceItemId).toBe(chosen);
  });

  it('refuses an id an item already has, and a malformed id', async () => {
    const taken = await request(featureId, uniqueName('taken'));
    expect(taken.error.code).toBe(400);
    expect(taken.error.messageCode).toBe('CONT_0093');
    const bad = await request('not-an-id', uniqueName('bad'));
    expect(bad.error.details).toEqual(['itemIdToCreate must be 32 letters or digits.']);
  });
});

describe('itemIdToCreate on a tile package', () => {
  it('publishes the package into a Map Service item with the chosen id', async () => {
    const token = await signIn();
    const chosen = randomBytes(16).toString('hex');
    const name = uniqueName('chosen_id_tpkx');
    const res = await upload(
      `/sharing/rest/content/users/${owner()}/publish`,
      { token, filetype: 'tilePackage', itemIdToCreate: chosen, publishParameters: JSON.stringify({ name }) },
      { name: 'red.tpkx', path: tilesFixture('red.tpkx') },
    );
    expect(res.services[0].serviceItemId).toBe(chosen);
    const status = await waitForJob(token, owner(), chosen, res.services[0].jobId);
    expect(status.status).toBe('completed');
    expect((await fetchTile(name, 1, 1, 1)).status).toBe(200);
  });
});
