/**
 * The SOAP cache operations over a Map Service whose tile cache was built from a published point
 * CSV, and every one of the 55 operations called once over HTTP with a minimal valid request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lonLatToMercator, tileAt } from '../../../lib/tiles/web-mercator.js';
import { SCHEMA } from '../../../soap/schema/registry.js';
import { createSchemaValidator, type SchemaValidator } from '../../unit/soap/schema-validator.js';
import { uniqueName } from '../publish/publish-client.js';
import { adminToken, signIn, stack } from '../support/portal-client.js';
import { minimalRequests } from './minimal-requests.js';
import {
  faultOf,
  publishStations,
  publishStationTiles,
  type Reply,
  securedEndpoint,
  soapClient,
  VIEW,
} from './soap-client.js';

const features = uniqueName('soap_cached_src');
const tiled = uniqueName('soap_station_tiles');
let client: any;
let tiledClient: any;
let validator: SchemaValidator;

beforeAll(async () => {
  const token = await signIn();
  await publishStationTiles(token, await publishStations(token, features), tiled);
  client = await soapClient(features);
  tiledClient = await soapClient(tiled);
  validator = createSchemaValidator(await (await fetch(`${await securedEndpoint(tiled)}&wsdl`)).text());
}, 400_000);
afterAll(() => validator?.dispose());

describe('tile cache', () => {
  const [cx, cy] = lonLatToMercator(-87.630886, 41.885737);
  const tile = tileAt(cx, cy, 11);

  it('GetMapTile returns the same bytes as the REST tile endpoint', async () => {
    const [reply] = (await tiledClient.GetMapTileAsync({
      MapName: 'Layers',
      Level: 11,
      Row: tile.row,
      Column: tile.col,
    })) as Reply;
    const rest = await fetch(
      `${stack().baseUrl}/rest/services/Hosted/${tiled}/MapServer/tile/11/${tile.row}/${tile.col}?token=${await adminToken()}`,
    );
    expect(rest.status).toBe(200);
    expect(Buffer.from(reply.Result, 'base64')).toEqual(Buffer.from(await rest.arrayBuffer()));
  });

  it('GetTileCacheInfo lists the built levels', async () => {
    const [reply] = (await tiledClient.GetTileCacheInfoAsync({ MapName: 'Layers' })) as Reply;
    expect(reply.Result.LODInfos.LODInfo.map((l: { LevelID: number }) => l.LevelID)).toEqual([10, 11]);
    expect(reply.Result.TileCols).toBe(256);
  });

  it('a level outside the cache is a client fault naming the levels', async () => {
    const fault = await faultOf(
      tiledClient.GetMapTileAsync({ MapName: 'Layers', Level: 15, Row: 0, Column: 0 }),
    );
    expect(fault.faultstring).toBe('Invalid level: 15; the cache has levels 10 to 11.');
  });

  it('a row outside the level is a client fault', async () => {
    const fault = await faultOf(
      tiledClient.GetMapTileAsync({ MapName: 'Layers', Level: 10, Row: 1024, Column: 0 }),
    );
    expect(fault.faultstring).toBe('Invalid row: 1024 at level 10.');
  });

  it('the feature service a cache was built from answers with that cache', async () => {
    expect((await client.HasSingleFusedMapCacheAsync({ MapName: 'Layers' }))[0].Result).toBe(true);
    expect((await client.GetCacheNameAsync({ MapName: 'Layers', LayerID: -1 }))[0].Result).toBe(tiled);
  });
});

describe('every operation over HTTP', () => {
  const [cx, cy] = lonLatToMercator(-87.630886, 41.885737);
  const requests = minimalRequests(VIEW, tileAt(cx, cy, 11));

  it('has a minimal request for each of the 55 operations', () => {
    expect(Object.keys(requests).sort()).toEqual([...SCHEMA.operations.keys()].sort());
  });

  it.each([...SCHEMA.operations.keys()].filter((op) => op !== 'GetLayerTile'))(
    '%s answers without a fault, valid against the WSDL schema',
    async (op) => {
      const [reply, raw] = (await tiledClient[`${op}Async`](requests[op])) as Reply;
      expect(reply).toBeTypeOf('object');
      expect(validator.errors(raw)).toEqual([]);
    },
  );

  it('GetLayerTile faults: a hosted map has a single fused cache, no layer caches', async () => {
    const fault = await faultOf(tiledClient.GetLayerTileAsync(requests.GetLayerTile));
    expect(fault.faultstring).toMatch(/has no layer cache/);
  });
});
