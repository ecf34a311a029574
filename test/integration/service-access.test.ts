/**
 * Hosted services answer only those who may read their items, on every surface: FeatureServer,
 * MapServer (service JSON and tiles), the services directory and SOAP. Sharing the item opens them.
 */
import soap from 'soap';
import { beforeAll, describe, expect, it } from 'vitest';
import { lonLatToMercator, tileAt } from '../../lib/tiles/web-mercator.js';
import { newUser, type TestUser, unique } from './portal/portal-helpers.js';
import { featureServer, uniqueName } from './publish/publish-client.js';
import {
  DISPLAY,
  extentRequest,
  faultOf,
  PNG_MIME,
  publishStations,
  publishStationTiles,
  type Reply,
  rawSoap,
  soapEndpoint,
} from './soap/soap-client.js';
import { adminToken, call, stack } from './support/portal-client.js';

const features = uniqueName('access_stations');
const tiled = uniqueName('access_tiles');
let featureItemId: string;
let mapItemId: string;
let member: TestUser;
let outsider: TestUser;

const [hx, hy] = lonLatToMercator(-87.672892, 42.019063);
const tile = tileAt(hx, hy, 11);
const tileUrl = (token?: string) =>
  `${stack().baseUrl}/rest/services/Hosted/${tiled}/MapServer/tile/11/${tile.row}/${tile.col}${token ? `?token=${token}` : ''}`;

const count = async (token?: string) =>
  (
    await call(`${featureServer(features)}/0/query`, {
      ...(token ? { token } : {}),
      where: '1=1',
      returnCountOnly: 'true',
    })
  ).json;

const share = async (id: string, params: Record<string, string>) => {
  const owner = stack().admin.username;
  const res = await call(`/sharing/rest/content/users/${owner}/items/${id}/share`, {
    token: await adminToken(),
    ...params,
  });
  expect(res.json.itemId).toBe(id);
};

/** Tile answers are remembered for two seconds per viewer; a change of sharing shows after that. */
async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await probe();
  for (let i = 0; i < 40 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 150));
    value = await probe();
  }
  return value;
}

beforeAll(async () => {
  const token = await adminToken();
  featureItemId = await publishStations(token, features);
  await publishStationTiles(token, featureItemId, tiled);
  const map = await call(`/rest/services/Hosted/${tiled}/MapServer`, { token }, { method: 'GET' });
  mapItemId = map.json.serviceItemId;
  [member, outsider] = [await newUser(), await newUser()];
}, 400_000);

describe('a private hosted service', () => {
  it('asks anonymous callers for a token on the FeatureServer, its layers and its query', async () => {
    for (const path of [featureServer(features), `${featureServer(features)}/0`]) {
      const res = await call(path, {}, { method: 'GET' });
      expect(res.json.error).toEqual({
        code: 499,
        message: 'Token Required',
        messageCode: 'GWM_0003',
        details: ['Token Required'],
      });
    }
    expect((await count()).error.code).toBe(499);
  });

  it('answers its owner', async () => {
    expect(await count(await adminToken())).toEqual({ count: 6 });
  });

  it('refuses a signed-in member who may not read the item with 403', async () => {
    const res = await count(outsider.token);
    expect(res.error.code).toBe(403);
    expect(res.error.message).toBe(
      'You do not have permissions to access this resource or perform this operation.',
    );
  });

  it('asks anonymous tile and map service requests for a token, and serves the owner privately', async () => {
    const anonymous = await fetch(tileUrl());
    expect(((await anonymous.json()) as any).error.code).toBe(499);
    const owner = await fetch(tileUrl(await adminToken()));
    expect(owner.status).toBe(200);
    expect(owner.headers.get('content-type')).toBe('image/png');
    expect(owner.headers.get('cache-control')).toBe('private, max-age=3600, must-revalidate');
    const info = await call(`/rest/services/Hosted/${tiled}/MapServer`, {}, { method: 'GET' });
    expect(info.json.error.code).toBe(499);
  });

  it('answers anonymous SOAP requests with a client fault asking for a token', async () => {
    const res = await fetch(`${stack().baseUrl}/services/Hosted/${features}/MapServer`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
      body: '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetDefaultMapName/></soap:Body></soap:Envelope>',
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).toContain('<faultcode>soap:Client</faultcode>');
    expect(text).toContain('<faultstring>Token Required</faultstring>');
    const wsdl = await fetch(`${stack().baseUrl}/services/Hosted/${tiled}/MapServer?wsdl`);
    expect(await wsdl.text()).toContain('<faultstring>Token Required</faultstring>');
    // With the token in the URL the same service answers.
    const { status, body } = await rawSoap(features, '<g:GetDefaultMapName/>');
    expect(status).toBe(200);
    expect(body.GetDefaultMapNameResponse.Result).toBe('Layers');
  });

  it('is left out of the services directory for callers who may not read it', async () => {
    const entry = { name: `Hosted/${features}`, type: 'FeatureServer' };
    const anonymous = await call('/rest/services/Hosted', {}, { method: 'GET' });
    expect(anonymous.json.services).not.toContainEqual(entry);
    const owner = await call('/rest/services/Hosted', { token: await adminToken() }, { method: 'GET' });
    expect(owner.json.services).toContainEqual(entry);
  });
});

describe('sharing opens the service', () => {
  it('to the members of a group it is shared with', async () => {
    const group = await call('/sharing/rest/community/createGroup', {
      token: await adminToken(),
      title: unique('service readers '),
    });
    const groupId = group.json.group.id as string;
    await call(`/sharing/rest/community/groups/${groupId}/addUsers`, {
      token: await adminToken(),
      users: member.username,
    });
    expect((await count(member.token)).error.code).toBe(403);
    await share(featureItemId, { groups: groupId });
    expect(await count(member.token)).toEqual({ count: 6 });
    expect((await count(outsider.token)).error.code).toBe(403);
  });

  it('to the whole organization, not to anonymous callers', async () => {
    await share(mapItemId, { org: 'true' });
    const res = await eventually(
      () => fetch(tileUrl(outsider.token)),
      (r) => r.status === 200 && r.headers.get('content-type') === 'image/png',
    );
    expect(res.headers.get('content-type')).toBe('image/png');
    const anonymous = await fetch(tileUrl());
    expect(((await anonymous.json()) as any).error.code).toBe(499);
  });

  it('to everyone for a tile service alone: its tiles and map open on REST and SOAP, not the private features it was drawn from', async () => {
    // The feature service stays shared with one group; only the tile service drawn from it is public.
    await share(mapItemId, { everyone: 'true' });
    const rest = await eventually(
      () => fetch(tileUrl()),
      (r) => r.status === 200 && r.headers.get('content-type') === 'image/png',
    );
    expect(rest.headers.get('content-type')).toBe('image/png');
    const restBytes = Buffer.from(await rest.arrayBuffer());
    expect((await count()).error.code).toBe(499);

    // A SOAP toolkit without a token: the WSDL, the tile (the very bytes REST serves), the map's description
    // and its legend answer; reading or drawing features asks for a token, as the REST query does.
    // SOAP remembers access answers for two seconds too, counted from its own last refusal.
    const wsdl = await eventually(
      () => fetch(`${soapEndpoint(tiled)}?wsdl`),
      (r) => r.status === 200,
    );
    expect(wsdl.status).toBe(200);
    const anonymous = await soap.createClientAsync(`${soapEndpoint(tiled)}?wsdl`);
    const [tileReply] = (await anonymous.GetMapTileAsync({
      MapName: 'Layers',
      Level: 11,
      Row: tile.row,
      Column: tile.col,
    })) as Reply;
    expect(Buffer.from(tileReply.Result, 'base64').equals(restBytes)).toBe(true);
    const [info] = (await anonymous.GetServerInfoAsync({ MapName: 'Layers' })) as Reply;
    expect(info.Result.DefaultMapDescription.Name).toBe('Layers');
    const [legend] = (await anonymous.GetLegendInfoAsync({
      MapName: 'Layers',
      LayerIDs: {},
      LegendPatch: { Width: 20, Height: 20, ImageDPI: 96 },
      ImageType: PNG_MIME,
    })) as Reply;
    expect(legend.Result.MapServerLegendInfo[0].LayerID).toBe(0);
    const countOver = (client: Awaited<ReturnType<typeof soap.createClientAsync>>) =>
      client.QueryFeatureCountAsync({
        MapName: 'Layers',
        LayerID: 0,
        QueryFilter: { WhereClause: '1=1', Resolution: 0 },
      });
    expect((await faultOf(countOver(anonymous))).faultstring).toBe('Token Required');
    const drawn = anonymous.ExportMapImageAsync({
      MapDescription: extentRequest(hx - 5000, hy - 5000, hx + 5000, hy + 5000),
      ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
    });
    expect((await faultOf(drawn)).faultstring).toBe('Token Required');

    // Signed in: a member of the feature service's group counts its features, an outsider is refused.
    const as = async (token: string) => {
      const endpoint = `${soapEndpoint(tiled)}?token=${token}`;
      const client = await soap.createClientAsync(`${endpoint}&wsdl`);
      client.setEndpoint(endpoint);
      return client;
    };
    const [counted] = (await countOver(await as(member.token))) as Reply;
    expect(counted.Result).toBe(6);
    expect((await faultOf(countOver(await as(outsider.token)))).faultstring).toBe(
      'You do not have permissions to access this resource or perform this operation.',
    );
  });

  it('to everyone: anonymous callers query it, and its tiles may be cached publicly', async () => {
    await share(featureItemId, { everyone: 'true' });
    await share(mapItemId, { everyone: 'true' });
    expect(await count()).toEqual({ count: 6 });
    const res = await eventually(
      () => fetch(tileUrl()),
      (r) => r.headers.get('cache-control') === 'public, max-age=3600, must-revalidate',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600, must-revalidate');
    const directory = await call('/rest/services/Hosted', {}, { method: 'GET' });
    expect(directory.json.services).toContainEqual({ name: `Hosted/${features}`, type: 'FeatureServer' });
  });
});
