import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSoapService } from '../../../soap/dispatcher.js';
import { FIXED_HANDLERS, TILE_BYTES } from './fixed-handlers.js';

/**
 * A protocol test: the node-soap client talks to our dispatcher over real HTTP on 127.0.0.1,
 * reading the WSDL from `?wsdl` and calling operations whose handlers return fixed values.
 */
const PATH = '/geo/services/Hosted/World/MapServer';
const service = createSoapService(FIXED_HANDLERS);
let server: Server;
let client: soap.Client;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const target = { serviceName: 'World', endpointUrl: `${url.origin}${PATH}` };
      const soapAction = req.headers.soapaction;
      const answer =
        req.method === 'GET' && url.searchParams.has('wsdl')
          ? service.wsdl(target)
          : await service.handle({
              ...target,
              body: Buffer.concat(chunks).toString('utf8'),
              soapAction: Array.isArray(soapAction) ? soapAction[0] : soapAction,
            });
      res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = await soap.createClientAsync(`http://127.0.0.1:${port}${PATH}?wsdl`);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Reply = [Record<string, unknown>, string];

describe('node-soap against our dispatcher', () => {
  it('fetches a tile whose base64 Result decodes to the handler’s bytes', async () => {
    const [reply] = (await client.GetMapTileAsync({
      MapName: 'Layers',
      Level: 4,
      Row: 5,
      Column: 8,
    })) as Reply;
    expect(Buffer.from(reply.Result as string, 'base64')).toEqual(TILE_BYTES);
  });

  it('reads TileCacheInfo with numbers typed by the schema', async () => {
    const [reply] = (await client.GetTileCacheInfoAsync({ MapName: 'Layers' })) as Reply;
    expect(reply.Result).toMatchObject({
      TileCols: 256,
      TileRows: 256,
      DPI: 96,
      TileOrigin: { X: -20037508.342787, Y: 20037508.342787 },
      SpatialReference: { WKID: 102100, LatestWKID: 3857 },
      LODInfos: { LODInfo: [{ LevelID: 0, Scale: 591657527.591555, Resolution: 156543.033928 }] },
    });
  });

  it('reads nested server info down to the default map description', async () => {
    const [reply] = (await client.GetServerInfoAsync({ MapName: 'Layers' })) as Reply;
    expect(reply.Result).toMatchObject({
      Name: 'Layers',
      Units: 'geoMeters',
      MapLayerInfos: { MapLayerInfo: [{ LayerID: 0, Name: 'Parcels', IDField: 'OBJECTID' }] },
      DefaultMapDescription: { Name: 'Layers', MapArea: { Extent: { XMin: -180, YMax: 90 } } },
    });
  });

  it('sends an xsi:typed SpatialFilter that our decoder resolves', async () => {
    const [reply] = (await client.QueryFeatureCountAsync({
      MapName: 'Layers',
      LayerID: 0,
      QueryFilter: {
        attributes: { 'xsi:type': 'tns:SpatialFilter' },
        WhereClause: '1=1',
        Resolution: 0,
        SearchOrder: 'geoSearchOrderSpatial',
        SpatialRel: 'geoSpatialRelIntersects',
        SpatialRelDescription: '',
        FilterGeometry: { attributes: { 'xsi:type': 'tns:EnvelopeN' }, XMin: 0, YMin: 0, XMax: 1, YMax: 1 },
        GeometryFieldName: 'SHAPE',
        FilterOwnsGeometry: false,
      },
    })) as Reply;
    expect(reply.Result).toBe(3);
  });

  it('receives both arrays of FromMapPoints', async () => {
    const [reply] = (await client.FromMapPointsAsync({
      MapDescription: { Name: 'Layers', Rotation: 0 },
      MapImageDisplay: { ImageHeight: 100, ImageWidth: 100, ImageDPI: 96 },
      MapPoints: { attributes: { 'xsi:type': 'tns:MultipointN' }, HasID: false, HasZ: false, HasM: false },
    })) as Reply;
    expect(reply).toMatchObject({ ScreenXValues: { Int: [10, 20] }, ScreenYValues: { Int: [30, 40] } });
  });

  it('reads record values typed by xsi:type', async () => {
    const [reply] = (await client.QueryFeatureDataAsync({
      MapName: 'Layers',
      LayerID: 0,
      QueryFilter: { WhereClause: '1=1', Resolution: 0 },
    })) as Reply;
    type AnyTyped = { $value?: string; attributes: Record<string, string> };
    type Records = { Records: { Record: { Values: { Value: AnyTyped[] } }[] } };
    // node-soap keeps anyType values as text with their xsi:type attribute beside it, and drops
    // xsi:nil items from arrays (the encoder test shows the nil Value we write).
    const values = (reply.Result as Records).Records.Record.map((r) =>
      r.Values.Value.map((v) => [v.$value, v.attributes['xsi:type'] ?? 'nil']),
    );
    expect(values).toEqual([
      [
        ['1', 'xs:int'],
        ['Main St', 'xs:string'],
      ],
      [['2', 'xs:int']],
    ]);
  });

  it('surfaces a handler’s GeoError as a SOAP 1.1 fault', async () => {
    const error = await client.GetMapNameAsync({ Index: 99 }).catch((e: unknown) => e);
    const fault = (error as { root: { Envelope: { Body: { Fault: Record<string, unknown> } } } }).root
      .Envelope.Body.Fault;
    expect(fault.faultcode).toBe('soap:Client');
    expect(fault.faultstring).toBe('Invalid map index: 99');
  });
});
