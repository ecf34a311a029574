/**
 * Ownership access control on the SOAP surface: with allowOthersToQuery false, every SOAP operation
 * that reads or draws a layer's features shows a caller what the REST FeatureServer query shows them
 * (their own features; the owner and administrators everything), and a layer without it is unchanged.
 */
import sharp from 'sharp';
import soap from 'soap';
import { beforeAll, describe, expect, it } from 'vitest';
import { lonLatToMercator } from '../../../lib/tiles/web-mercator.js';
import { EDITABLE, type EditableService, edit, publishStations } from '../editing/edit-client.js';
import { newUser, type TestUser } from '../portal/portal-helpers.js';
import { adminToken, call, stack } from '../support/portal-client.js';
import { DISPLAY, extentRequest, faultOf, PNG_MIME, type Reply, soapEndpoint } from './soap-client.js';

/** Where each user's dock is added, in WGS84 and Web Mercator; the published rows lie near -87.60. */
const ALICE_LONLAT = [-87.7, 41.95] as const;
const BOB_LONLAT = [-87.66, 41.8] as const;
const ALICE = lonLatToMercator(...ALICE_LONLAT);
const BOB = lonLatToMercator(...BOB_LONLAT);
const [vx0, vy0] = lonLatToMercator(-87.76, 41.77);
const [vx1, vy1] = lonLatToMercator(-87.56, 41.98);
const VIEW = extentRequest(vx0, vy0, vx1, vy1);

const dock = (name: string, [x, y]: readonly [number, number]) => ({
  attributes: { Name: name, Kind: 'dock' },
  geometry: { x, y, spatialReference: { wkid: 4326 } },
});

/** Editor tracking on; ownership access control hiding others' features, or off. */
const tracking = (ownership: boolean) => ({
  ...EDITABLE,
  editorTrackingInfo: {
    enableEditorTracking: true,
    enableOwnershipAccessControl: ownership,
    allowOthersToQuery: !ownership,
    allowOthersToUpdate: false,
    allowOthersToDelete: false,
  },
});

async function shareWithOrg(svc: EditableService): Promise<void> {
  const res = await call(
    `/sharing/rest/content/users/${stack().admin.username}/items/${svc.serviceItemId}/share`,
    { token: await adminToken(), org: 'true' },
  );
  if (res.json.error) throw new Error(`share failed: ${res.text}`);
}

/** A layer published by the administrator (3 rows), shared with the organization, a dock from each user. */
async function publishWithDocks(ownership: boolean, alice: TestUser, bob: TestUser) {
  const svc = await publishStations(await adminToken(), tracking(ownership));
  await shareWithOrg(svc);
  const byAlice = await edit(`${svc.layer}/addFeatures`, alice.token, {
    features: [dock('Alice dock', ALICE_LONLAT)],
  });
  const byBob = await edit(`${svc.layer}/addFeatures`, bob.token, {
    features: [dock('Bob dock', BOB_LONLAT)],
  });
  if (!byAlice.addResults?.[0]?.success || !byBob.addResults?.[0]?.success)
    throw new Error(`addFeatures failed: ${JSON.stringify([byAlice, byBob])}`);
  return {
    svc,
    aliceId: byAlice.addResults[0].objectId as number,
    bobId: byBob.addResults[0].objectId as number,
  };
}

/** A node-soap client of the service's SOAP endpoint calling with `token` (the caller it speaks for). */
async function soapClientAs(name: string, token: string) {
  const endpoint = `${soapEndpoint(name)}?token=${token}`;
  const client = await soap.createClientAsync(`${endpoint}&wsdl`);
  client.setEndpoint(endpoint);
  return client;
}

/** The REST FeatureServer query of layer 0 as the caller of `token`. */
async function restAs(svc: EditableService, token: string, params: Record<string, string>) {
  const res = await call(`${svc.layer}/query`, { token, ...params }, { method: 'GET' });
  if (res.json.error) throw new Error(`REST query failed: ${res.text}`);
  return res.json;
}

const layerDescription = {
  LayerID: 0,
  Visible: true,
  ShowLabels: false,
  ScaleSymbols: false,
  SetSelectionSymbol: false,
  SelectionBufferDistance: 0,
  ShowSelectionBuffer: false,
  DefinitionExpression: '',
};

const filter = (where = '1=1') => ({ WhereClause: where, Resolution: 0 });

async function soapCount(client: any, where?: string): Promise<number> {
  const [reply] = (await client.QueryFeatureCountAsync({
    MapName: 'Layers',
    LayerID: 0,
    QueryFilter: filter(where),
  })) as Reply;
  return reply.Result;
}

async function soapIds(client: any): Promise<number[]> {
  const [reply] = (await client.QueryFeatureIDsAsync({
    MapName: 'Layers',
    LayerID: 0,
    QueryFilter: filter(),
  })) as Reply;
  return [...(reply.Result?.FIDArray?.Int ?? [])].map(Number).sort((a, b) => a - b);
}

/** The Name of every record QueryFeatureData returns, sorted. */
async function soapNames(client: any, where?: string): Promise<string[]> {
  const [reply] = (await client.QueryFeatureDataAsync({
    MapName: 'Layers',
    LayerID: 0,
    QueryFilter: { ...filter(where), SubFields: 'OBJECTID,Name' },
  })) as Reply;
  const records = reply.Result.Records?.Record ?? [];
  return records.map((r: any) => String(r.Values.Value[1].$value)).sort();
}

async function findDocks(client: any): Promise<string[]> {
  const [reply] = (await client.FindAsync({
    MapDescription: VIEW,
    MapImageDisplay: DISPLAY,
    SearchString: 'dock',
    Contains: true,
    SearchFields: 'Name',
    FindOption: 'geoFindAllLayers',
    LayerIDs: {},
  })) as Reply;
  return (reply.Result?.MapServerFindResult ?? []).map((r: any) => r.Value).sort();
}

/** The features Identify finds within 5 pixels of a point. */
async function identifyAt(client: any, [x, y]: readonly [number, number]): Promise<number[]> {
  const [reply] = (await client.IdentifyAsync({
    MapDescription: VIEW,
    MapImageDisplay: DISPLAY,
    SearchShape: { attributes: { 'xsi:type': 'tns:PointN' }, X: x, Y: y },
    Tolerance: 5,
    IdentifyOption: 'geoIdentifyAllLayers',
    LayerIDs: {},
  })) as Reply;
  return (reply.Result?.MapServerIdentifyResult ?? []).map((r: any) => r.FeatureID);
}

/** ExportMapImage of the view; answers the RGBA pixels within `radius` of a map point. */
async function exportMap(client: any) {
  const [reply] = (await client.ExportMapImageAsync({
    MapDescription: VIEW,
    ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
  })) as Reply;
  const { data, info } = await sharp(Buffer.from(reply.Result.ImageData, 'base64'))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const e = reply.Result.Extent;
  const res = (e.XMax - e.XMin) / info.width;
  return (point: readonly [number, number], radius = 0): number[][] => {
    const [cx, cy] = [Math.floor((point[0] - e.XMin) / res), Math.floor((e.YMax - point[1]) / res)];
    const out: number[][] = [];
    for (let py = cy - radius; py <= cy + radius; py++)
      for (let px = cx - radius; px <= cx + radius; px++) {
        const i = (py * info.width + px) * 4;
        out.push([data[i], data[i + 1], data[i + 2], data[i + 3]]);
      }
    return out;
  };
}

const alphas = (pixels: number[][]) => [...new Set(pixels.map((p) => p[3]))];

let admin: string;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  admin = await adminToken();
  [alice, bob] = [await newUser(), await newUser()];
}, 60_000);

describe('a layer whose ownership access control hides others’ features (allowOthersToQuery false)', () => {
  let svc: EditableService;
  let aliceId: number;
  let bobId: number;
  const clients: Record<'alice' | 'bob' | 'admin', any> = { alice: null, bob: null, admin: null };
  const tokens = () => ({ alice: alice.token, bob: bob.token, admin });

  beforeAll(async () => {
    ({ svc, aliceId, bobId } = await publishWithDocks(true, alice, bob));
    clients.alice = await soapClientAs(svc.name, alice.token);
    clients.bob = await soapClientAs(svc.name, bob.token);
    clients.admin = await soapClientAs(svc.name, admin);
  }, 300_000);

  it('QueryFeatureCount counts each user’s own features and everything for the owner, as REST does', async () => {
    const counts = {
      alice: await soapCount(clients.alice),
      bob: await soapCount(clients.bob),
      admin: await soapCount(clients.admin),
    };
    expect(counts).toEqual({ alice: 1, bob: 1, admin: 5 });
    for (const who of ['alice', 'bob', 'admin'] as const) {
      const rest = await restAs(svc, tokens()[who], { where: '1=1', returnCountOnly: 'true' });
      expect(counts[who]).toBe(rest.count);
    }
  });

  it('QueryFeatureIDs returns the ids the REST query returns to the same caller', async () => {
    expect(await soapIds(clients.alice)).toEqual([aliceId]);
    expect(await soapIds(clients.bob)).toEqual([bobId]);
    const all = await soapIds(clients.admin);
    expect(all).toHaveLength(5);
    expect(all).toEqual(expect.arrayContaining([aliceId, bobId]));
    for (const who of ['alice', 'bob', 'admin'] as const) {
      const rest = await restAs(svc, tokens()[who], { where: '1=1', returnIdsOnly: 'true' });
      expect(await soapIds(clients[who])).toEqual([...rest.objectIds].sort((a: number, b: number) => a - b));
    }
  });

  it('QueryFeatureData returns only the caller’s own records, even for a where clause naming others’', async () => {
    expect(await soapNames(clients.alice)).toEqual(['Alice dock']);
    expect(await soapNames(clients.bob)).toEqual(['Bob dock']);
    expect(await soapNames(clients.bob, "Name = 'Alice dock'")).toEqual([]);
    expect(await soapNames(clients.admin, "Kind = 'dock'")).toEqual(['Alice dock', 'Bob dock']);
  });

  it('a where clause that closes the brackets around it is refused, or still narrowed', async () => {
    const fault = await faultOf(
      clients.bob.QueryFeatureCountAsync({
        MapName: 'Layers',
        LayerID: 0,
        QueryFilter: filter('1=1) OR (1=1'),
      }),
    );
    expect(fault.faultcode).toMatch(/Client/);
    expect(fault.faultstring).toMatch(/where clause/i);
    // With a DefinitionExpression the two clauses are bracketed and joined into one that parses.
    const [reply] = (await clients.bob.QueryFeatureCount2Async({
      MapName: 'Layers',
      LayerDescription: { ...layerDescription, DefinitionExpression: 'OBJECTID > 0' },
      QueryFilter: filter('1=1) OR (1=1'),
    })) as Reply;
    expect(reply.Result).toBe(1);
  });

  it('QueryFeatureData2 as JSON and QueryDataStatistics see the same narrowed rows', async () => {
    const [data] = (await clients.bob.QueryFeatureData2Async({
      MapName: 'Layers',
      LayerDescription: layerDescription,
      QueryFilter: filter(),
      QueryResultOptions: { Format: 'geoQueryResultJsonAsMime' },
    })) as Reply;
    const json = JSON.parse(Buffer.from(data.Result.MimeData, 'base64').toString('utf8'));
    expect(json.features.map((f: any) => f.attributes.OBJECTID)).toEqual([bobId]);
    const [stats] = (await clients.alice.QueryDataStatisticsAsync({
      MapName: 'Layers',
      MapTableDescription: { attributes: { 'xsi:type': 'tns:StandaloneTableDescription' }, ID: 0 },
      StatisticsRequest: {
        StatisticDescriptions: {
          StatisticDescription: [
            { StatisticFieldName: 'OBJECTID', StatisticType: 'geoDataStatTypeCount', ResultFieldName: 'n' },
          ],
        },
      },
      QueryFilter: filter(),
    })) as Reply;
    expect(Number(stats.Result.Records.Record[0].Values.Value[0].$value)).toBe(1);
  });

  it('Find finds only the caller’s own dock; the owner finds both', async () => {
    expect(await findDocks(clients.alice)).toEqual(['Alice dock']);
    expect(await findDocks(clients.bob)).toEqual(['Bob dock']);
    expect(await findDocks(clients.admin)).toEqual(['Alice dock', 'Bob dock']);
  });

  it('Identify over another user’s feature finds nothing; over one’s own it finds it', async () => {
    expect(await identifyAt(clients.alice, BOB)).toEqual([]);
    expect(await identifyAt(clients.bob, BOB)).toEqual([bobId]);
    expect(await identifyAt(clients.bob, ALICE)).toEqual([]);
    expect(await identifyAt(clients.admin, ALICE)).toEqual([aliceId]);
  });

  it('QueryHTMLPopups gives no popup for another user’s feature', async () => {
    const popups = async (client: any) => {
      const [reply] = (await client.QueryHTMLPopupsAsync({
        MapName: 'Layers',
        TableID: 0,
        RowIDs: { Int: [aliceId, bobId] },
      })) as Reply;
      return ([reply.Result?.String ?? []].flat() as string[]).map((html) =>
        html.includes('Alice dock') ? 'alice' : html.includes('Bob dock') ? 'bob' : html,
      );
    };
    expect(await popups(clients.bob)).toEqual(['bob']);
    expect(await popups(clients.admin)).toEqual(['alice', 'bob']);
  });

  it('a FeatureExtent map area cannot be centred on another user’s feature', async () => {
    const around = (id: number) => ({
      Name: 'Layers',
      MapArea: {
        attributes: { 'xsi:type': 'tns:FeatureExtent' },
        DefaultScale: 50000,
        ExpandRatio: 1,
        FeatureIDs: { Int: [id] },
        LayerID: 0,
        MapName: 'Layers',
      },
      Rotation: 0,
    });
    const scale = (client: any, id: number) =>
      client.ComputeScaleAsync({ MapDescription: around(id), MapImageDisplay: DISPLAY });
    const fault = await faultOf(scale(clients.bob, aliceId));
    expect(fault.faultstring).toContain(`None of the features ${aliceId}`);
    expect((await scale(clients.alice, aliceId))[0].Result).toBeCloseTo(50000, 3);
  });

  it('ExportMapImage draws the caller’s own feature and leaves another user’s pixels empty', async () => {
    const forAlice = await exportMap(clients.alice);
    expect(forAlice(ALICE)[0][3]).toBe(255);
    expect(alphas(forAlice(BOB, 8))).toEqual([0]);
    const forBob = await exportMap(clients.bob);
    expect(forBob(BOB)[0][3]).toBe(255);
    expect(alphas(forBob(ALICE, 8))).toEqual([0]);
    const forAdmin = await exportMap(clients.admin);
    expect(forAdmin(ALICE)[0][3]).toBe(255);
    expect(forAdmin(BOB)[0][3]).toBe(255);
  });
});

describe('a layer without ownership access control', () => {
  let svc: EditableService;
  let aliceId: number;
  let bobId: number;
  let client: any;

  beforeAll(async () => {
    ({ svc, aliceId, bobId } = await publishWithDocks(false, alice, bob));
    client = await soapClientAs(svc.name, bob.token);
  }, 300_000);

  it('every caller counts, lists, finds, identifies and draws every feature', async () => {
    expect(await soapCount(client)).toBe(5);
    expect(await soapCount(client)).toBe(
      (await restAs(svc, bob.token, { where: '1=1', returnCountOnly: 'true' })).count,
    );
    expect(await soapIds(client)).toEqual(expect.arrayContaining([aliceId, bobId]));
    expect(await soapNames(client, "Kind = 'dock'")).toEqual(['Alice dock', 'Bob dock']);
    expect(await findDocks(client)).toEqual(['Alice dock', 'Bob dock']);
    expect(await identifyAt(client, ALICE)).toEqual([aliceId]);
    const image = await exportMap(client);
    expect(image(ALICE)[0][3]).toBe(255);
    expect(image(BOB)[0][3]).toBe(255);
  });
});
