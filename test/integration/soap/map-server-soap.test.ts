/**
 * The map-server SOAP interface over a published point CSV and a tile cache drawn from it, called
 * with the `soap` npm package as an independent client built from the WSDL the service serves.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { lonLatToMercator, tileAt } from '../../../lib/tiles/web-mercator.js';
import { SCHEMA } from '../../../soap/schema/registry.js';
import { uniqueName } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { minimalRequests } from './minimal-requests.js';
import {
  extentRequest,
  faultOf,
  publishStations,
  publishStationTiles,
  type Reply,
  rawSoap,
  soapClient,
  soapEndpoint,
} from './soap-client.js';

const features = uniqueName('soap_stations');
const tiled = uniqueName('soap_station_tiles');
const uncached = uniqueName('soap_uncached');
const HOWARD = lonLatToMercator(-87.672892, 42.019063);
const BELMONT = lonLatToMercator(-87.65338, 41.939751);
let client: any;
let tiledClient: any;
let uncachedClient: any;

/** An extent around all six stations, in Web Mercator. */
const [x0, y0] = lonLatToMercator(-87.76, 41.77);
const [x1, y1] = lonLatToMercator(-87.6, 42.03);
const VIEW: [number, number, number, number] = [x0, y0, x1, y1];
const DISPLAY = { ImageHeight: 200, ImageWidth: 300, ImageDPI: 96 };
const PNG_MIME = { ImageFormat: 'geoImagePNG', ImageReturnType: 'geoImageReturnMimeData' };

const restQuery = async (params: Record<string, string>) =>
  (await call(`/rest/services/Hosted/${features}/FeatureServer/0/query`, params, { method: 'GET' })).json;

beforeAll(async () => {
  const token = await signIn();
  const itemId = await publishStations(token, features);
  await publishStationTiles(token, itemId, tiled);
  await publishStations(token, uncached);
  uncachedClient = await soapClient(uncached);
  client = await soapClient(features);
  tiledClient = await soapClient(tiled);
}, 400_000);

describe('map information', () => {
  it('serves a WSDL naming the service and declaring all 55 operations', async () => {
    const wsdl = await (await fetch(`${soapEndpoint(features)}?wsdl`)).text();
    expect(wsdl).toMatch(new RegExp(`<service name="${features}_MapServer">`));
    const declared = [...wsdl.matchAll(/<operation name="(\w+)"/g)].map((m) => m[1]);
    expect(new Set(declared)).toEqual(new Set(SCHEMA.operations.keys()));
    expect(SCHEMA.operations.size).toBe(55);
  });

  it('GetServerInfo describes the layer, its fields and extents in Web Mercator', async () => {
    const [reply] = (await client.GetServerInfoAsync({ MapName: 'Layers' })) as Reply;
    const info = reply.Result;
    expect(info.Name).toBe('Layers');
    expect(info.Units).toBe('geoMeters');
    expect(info.SpatialReference.WKID).toBe(102100);
    const layer = info.MapLayerInfos.MapLayerInfo[0];
    expect(layer).toMatchObject({
      LayerID: 0,
      DisplayField: 'Name',
      IDField: 'OBJECTID',
      IsFeatureLayer: true,
    });
    const names = layer.Fields.FieldArray.Field.map((f: { Name: string }) => f.Name);
    expect(names).toEqual(expect.arrayContaining(['OBJECTID', 'Shape', 'Name', 'Line', 'Riders', 'Score']));
    expect(info.FullExtent.XMin).toBeCloseTo(lonLatToMercator(-87.737875, 41.78661)[0], 0);
    expect(info.FullExtent.YMax).toBeCloseTo(HOWARD[1], 0);
    expect(info.DefaultMapDescription.LayerDescriptions.LayerDescription[0]).toMatchObject({
      LayerID: 0,
      Visible: true,
    });
  });

  it('GetDefaultMapName and GetMapCount name the one data frame', async () => {
    expect((await client.GetDefaultMapNameAsync({}))[0].Result).toBe('Layers');
    expect((await client.GetMapCountAsync({}))[0].Result).toBe(1);
  });
});

describe('queries', () => {
  it('QueryFeatureCount equals the REST query count for the same where clause', async () => {
    const where = 'Riders > 10000';
    const [reply] = (await client.QueryFeatureCountAsync({
      MapName: 'Layers',
      LayerID: 0,
      QueryFilter: { WhereClause: where, Resolution: 0 },
    })) as Reply;
    const rest = await restQuery({ where, returnCountOnly: 'true' });
    expect(reply.Result).toBe(rest.count);
    expect(reply.Result).toBe(3);
  });

  it('QueryFeatureIDs returns the object ids the REST query returns', async () => {
    const [reply] = (await client.QueryFeatureIDsAsync({
      MapName: 'Layers',
      LayerID: 0,
      QueryFilter: { WhereClause: "Line = 'Red'", Resolution: 0 },
    })) as Reply;
    const rest = await restQuery({ where: "Line = 'Red'", returnIdsOnly: 'true' });
    expect([...reply.Result.FIDArray.Int].sort()).toEqual([...rest.objectIds].sort());
  });

  it('a SpatialFilter envelope counts only the stations inside it', async () => {
    const [reply] = (await client.QueryFeatureCountAsync({
      MapName: 'Layers',
      LayerID: 0,
      QueryFilter: {
        attributes: { 'xsi:type': 'tns:SpatialFilter' },
        WhereClause: '',
        Resolution: 0,
        SearchOrder: 'geoSearchOrderSpatial',
        SpatialRel: 'geoSpatialRelIntersects',
        SpatialRelDescription: '',
        FilterGeometry: {
          attributes: { 'xsi:type': 'tns:EnvelopeN' },
          XMin: HOWARD[0] - 500,
          YMin: HOWARD[1] - 500,
          XMax: HOWARD[0] + 500,
          YMax: HOWARD[1] + 500,
        },
        GeometryFieldName: 'Shape',
        FilterOwnsGeometry: false,
      },
    })) as Reply;
    expect(reply.Result).toBe(1);
  });

  it('QueryFeatureData returns records with the attribute values', async () => {
    const [reply] = (await client.QueryFeatureDataAsync({
      MapName: 'Layers',
      LayerID: 0,
      QueryFilter: { WhereClause: "Name = 'Midway'", SubFields: 'Name,Riders', Resolution: 0 },
    })) as Reply;
    const fields = reply.Result.Fields.FieldArray.Field.map((f: { Name: string }) => f.Name);
    expect(fields).toEqual(['OBJECTID', 'Name', 'Riders', 'Shape']);
    const values = reply.Result.Records.Record[0].Values.Value;
    expect(values[1].$value).toBe('Midway');
    expect(values[2].$value).toBe('6233');
  });

  it('QueryDataStatistics sums a field over the layer', async () => {
    const [reply] = (await client.QueryDataStatisticsAsync({
      MapName: 'Layers',
      MapTableDescription: { attributes: { 'xsi:type': 'tns:StandaloneTableDescription' }, ID: 0 },
      StatisticsRequest: {
        StatisticDescriptions: {
          StatisticDescription: [
            { StatisticFieldName: 'Riders', StatisticType: 'geoDataStatTypeSum', ResultFieldName: 'total' },
          ],
        },
      },
      QueryFilter: { WhereClause: '1=1', Resolution: 0 },
    })) as Reply;
    expect(reply.Result.Fields.FieldArray.Field[0].Name).toBe('total');
    expect(Number(reply.Result.Records.Record[0].Values.Value[0].$value)).toBe(64850);
  });

  it('QueryFeatureData2 as JSON MIME data carries the features the REST query returns', async () => {
    const [reply] = (await client.QueryFeatureData2Async({
      MapName: 'Layers',
      LayerDescription: {
        LayerID: 0,
        Visible: true,
        ShowLabels: false,
        ScaleSymbols: false,
        SetSelectionSymbol: false,
        SelectionBufferDistance: 0,
        ShowSelectionBuffer: false,
        DefinitionExpression: "Line = 'Red'",
      },
      QueryFilter: { WhereClause: 'Riders > 12000', Resolution: 0 },
      QueryResultOptions: { Format: 'geoQueryResultJsonAsMime' },
    })) as Reply;
    const json = JSON.parse(Buffer.from(reply.Result.MimeData, 'base64').toString('utf8'));
    const rest = await restQuery({ where: "Line = 'Red' AND Riders > 12000", outFields: '*' });
    expect(json.features.map((f: any) => f.attributes.Name)).toEqual(
      rest.features.map((f: any) => f.attributes.Name),
    );
    expect(json.features.map((f: any) => f.attributes.Name)).toEqual(['Jackson']);
  });

  it('a where clause naming an unknown field is a client fault that says the where clause is invalid', async () => {
    const fault = await faultOf(
      client.QueryFeatureCountAsync({
        MapName: 'Layers',
        LayerID: 0,
        QueryFilter: { WhereClause: 'Nope > 1', Resolution: 0 },
      }),
    );
    expect(fault.faultcode).toBe('soap:Client');
    expect(fault.faultstring).toMatch(/^Invalid where clause/);
  });

  it('an unknown layer id is a client fault naming it', async () => {
    const fault = await faultOf(
      client.QueryFeatureCountAsync({
        MapName: 'Layers',
        LayerID: 7,
        QueryFilter: { WhereClause: '', Resolution: 0 },
      }),
    );
    expect(fault.faultstring).toBe('Invalid layer ID: 7.');
  });

  it('GenerateDataClasses classifies a field by natural breaks with the data maximum last', async () => {
    const [reply] = (await client.GenerateDataClassesAsync({
      MapName: 'Layers',
      MapTableDescription: { attributes: { 'xsi:type': 'tns:StandaloneTableDescription' }, ID: 0 },
      DataClassificationDef: {
        attributes: { 'xsi:type': 'tns:ClassBreaksDef' },
        ClassificationField: 'Riders',
        ClassificationMethod: 'geoClassifyNaturalBreaks',
        BreakCount: 3,
      },
    })) as Reply;
    const breaks = reply.Result.ClassBreakInfos.ClassBreakInfo.map(
      (c: { ClassMaximumValue: number }) => c.ClassMaximumValue,
    );
    expect(breaks).toHaveLength(3);
    expect(breaks[2]).toBe(18210);
    expect(reply.Result.MinimumValue).toBe(4021);
  });
});

describe('display operations', () => {
  it('ExportMapImage returns a PNG of the requested size with the station drawn in the layer blue', async () => {
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: extentRequest(...VIEW),
      ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
    })) as Reply;
    const png = Buffer.from(reply.Result.ImageData, 'base64');
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([300, 200]);
    const e = reply.Result.Extent;
    const res = (e.XMax - e.XMin) / 300;
    const px = Math.floor((BELMONT[0] - e.XMin) / res);
    const py = Math.floor((e.YMax - BELMONT[1]) / res);
    const i = (py * 300 + px) * 4;
    expect([data[i], data[i + 1], data[i + 2], data[i + 3]]).toEqual([0, 122, 194, 255]);
    expect(data[3]).toBe(0);
    expect(reply.Result.VisibleLayerIDs.Int).toEqual([0]);
  });

  it('ExportMapImage in URL mode serves the image at the returned URL', async () => {
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: extentRequest(...VIEW),
      ImageDescription: {
        ImageType: { ...PNG_MIME, ImageReturnType: 'geoImageReturnURL' },
        ImageDisplay: DISPLAY,
      },
    })) as Reply;
    expect(reply.Result.ImageData).toBeUndefined();
    const res = await fetch(reply.Result.ImageURL);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(300);
  });

  const pixelsAround = async (reply: Reply[0], x: number, y: number, radius: number) => {
    const { data } = await sharp(Buffer.from(reply.Result.ImageData, 'base64'))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const e = reply.Result.Extent;
    const res = (e.XMax - e.XMin) / 300;
    const [cx, cy] = [Math.floor((x - e.XMin) / res), Math.floor((e.YMax - y) / res)];
    const out: number[][] = [];
    for (let py = cy - radius; py <= cy + radius; py++)
      for (let px = cx - radius; px <= cx + radius; px++) {
        const i = (py * 300 + px) * 4;
        out.push([data[i], data[i + 1], data[i + 2], data[i + 3]]);
      }
    return out;
  };
  const belmontId = async () =>
    (await restQuery({ where: "Name = 'Belmont'", returnIdsOnly: 'true' })).objectIds[0];

  it('ExportMapImage centres a FeatureExtent on the named feature', async () => {
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: {
        Name: 'Layers',
        MapArea: {
          attributes: { 'xsi:type': 'tns:FeatureExtent' },
          DefaultScale: 50000,
          ExpandRatio: 1,
          FeatureIDs: { Int: [await belmontId()] },
          LayerID: 0,
          MapName: 'Layers',
        },
        Rotation: 0,
      },
      ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
    })) as Reply;
    const e = reply.Result.Extent;
    expect((e.XMin + e.XMax) / 2).toBeCloseTo(BELMONT[0], 3);
    expect(reply.Result.MapScale).toBeCloseTo(50000, 3);
  });

  it('ExportMapImage draws with the renderer of a LayerDescription DrawingDescription', async () => {
    const red = { attributes: { 'xsi:type': 'tns:RgbColor' }, Red: 255, Green: 0, Blue: 0 };
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: {
        ...extentRequest(...VIEW),
        LayerDescriptions: {
          LayerDescription: [
            {
              LayerID: 0,
              Visible: true,
              ShowLabels: false,
              ScaleSymbols: false,
              SetSelectionSymbol: false,
              SelectionBufferDistance: 0,
              ShowSelectionBuffer: false,
              DefinitionExpression: '',
              DrawingDescription: {
                attributes: { 'xsi:type': 'tns:FeatureLayerDrawingDescription' },
                FeatureRenderer: {
                  attributes: { 'xsi:type': 'tns:SimpleRenderer' },
                  Symbol: {
                    attributes: { 'xsi:type': 'tns:SimpleMarkerSymbol' },
                    Angle: 0,
                    Color: red,
                    Size: 8,
                    XOffset: 0,
                    YOffset: 0,
                    Outline: false,
                    OutlineSize: 0,
                    OutlineColor: red,
                    Style: 'geoSMSSquare',
                  },
                },
              },
            },
          ],
        },
      },
      ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
    })) as Reply;
    const [centre] = await pixelsAround(reply, BELMONT[0], BELMONT[1], 0);
    expect(centre).toEqual([255, 0, 0, 255]);
  });

  it('ExportMapImage rings selected features in the selection color', async () => {
    const [reply] = (await client.ExportMapImageAsync({
      MapDescription: {
        ...extentRequest(...VIEW),
        LayerDescriptions: {
          LayerDescription: [
            {
              LayerID: 0,
              Visible: true,
              ShowLabels: false,
              ScaleSymbols: false,
              SelectionFeatures: { Int: [await belmontId()] },
              SetSelectionSymbol: false,
              SelectionBufferDistance: 0,
              ShowSelectionBuffer: false,
              DefinitionExpression: '',
            },
          ],
        },
      },
      ImageDescription: { ImageType: PNG_MIME, ImageDisplay: DISPLAY },
    })) as Reply;
    const around = await pixelsAround(reply, BELMONT[0], BELMONT[1], 10);
    expect(around).toContainEqual([0, 255, 255, 255]);
    const howard = await pixelsAround(reply, HOWARD[0], HOWARD[1], 10);
    expect(howard).not.toContainEqual([0, 255, 255, 255]);
  });

  it('ExportScaleBar draws a dark bar into a PNG of the requested size', async () => {
    const [reply] = (await client.ExportScaleBarAsync({
      ScaleBar: {
        attributes: { 'xsi:type': 'tns:AlternatingScaleBar' },
        Units: 'geoKilometers',
        Divisions: 4,
      },
      MapDescription: extentRequest(...VIEW),
      MapDisplay: DISPLAY,
      ImageDescription: {
        ImageType: PNG_MIME,
        ImageDisplay: { ImageWidth: 240, ImageHeight: 48, ImageDPI: 96 },
      },
    })) as Reply;
    const { data, info } = await sharp(Buffer.from(reply.Result.ImageData, 'base64'))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([240, 48]);
    const i = (14 * 240 + 6) * 4;
    expect([data[i], data[i + 1], data[i + 2], data[i + 3]]).toEqual([0, 0, 0, 255]);
  });

  it('GetLegendInfo draws a 20×20 swatch with the marker in the layer blue', async () => {
    const [reply] = (await client.GetLegendInfoAsync({
      MapName: 'Layers',
      LayerIDs: {},
      LegendPatch: { Width: 20, Height: 20, ImageDPI: 96 },
      ImageType: PNG_MIME,
    })) as Reply;
    const legend = reply.Result.MapServerLegendInfo[0];
    expect(legend.LayerID).toBe(0);
    const swatch =
      legend.LegendGroups.MapServerLegendGroup[0].LegendClasses.MapServerLegendClass[0].SymbolImage;
    const { data, info } = await sharp(Buffer.from(swatch.ImageData, 'base64'))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([20, 20]);
    const centre = (10 * 20 + 10) * 4;
    expect([data[centre], data[centre + 1], data[centre + 2]]).toEqual([0, 122, 194]);
  });

  it('Find matches a name case-insensitively and reports the field it matched', async () => {
    const [reply] = (await client.FindAsync({
      MapDescription: extentRequest(...VIEW),
      MapImageDisplay: DISPLAY,
      SearchString: 'belmont',
      Contains: true,
      SearchFields: 'Name,Line',
      FindOption: 'geoFindAllLayers',
      LayerIDs: {},
    })) as Reply;
    const results = reply.Result.MapServerFindResult;
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ Value: 'Belmont', FieldName: 'Name', LayerID: 0 });
    expect(results[0].Shape.X).toBeCloseTo(BELMONT[0], 0);
  });

  it('Identify with a pixel tolerance finds the station under the click and not its neighbours', async () => {
    const [reply] = (await client.IdentifyAsync({
      MapDescription: extentRequest(...VIEW),
      MapImageDisplay: DISPLAY,
      // 300 m off the station: within 5 pixels (~80 m each) of it.
      SearchShape: { attributes: { 'xsi:type': 'tns:PointN' }, X: HOWARD[0] + 300, Y: HOWARD[1] },
      Tolerance: 5,
      IdentifyOption: 'geoIdentifyAllLayers',
      LayerIDs: {},
    })) as Reply;
    const results = reply.Result.MapServerIdentifyResult;
    expect(results).toHaveLength(1);
    expect(results[0].Name).toBe('Howard');
  });

  it('ToMapPoints and FromMapPoints invert each other on the fitted extent', async () => {
    const args = { MapDescription: extentRequest(...VIEW), MapImageDisplay: DISPLAY };
    const [map] = (await client.ToMapPointsAsync({
      ...args,
      ScreenXValues: { Int: [15, 250] },
      ScreenYValues: { Int: [40, 190] },
    })) as Reply;
    const points = map.Result.PointArray.Point;
    const [screen] = (await client.FromMapPointsAsync({
      ...args,
      MapPoints: {
        attributes: { 'xsi:type': 'tns:MultipointN' },
        HasID: false,
        HasZ: false,
        HasM: false,
        PointArray: {
          Point: points.map((p: { X: number; Y: number }) => ({
            attributes: { 'xsi:type': 'tns:PointN' },
            X: p.X,
            Y: p.Y,
          })),
        },
      },
    })) as Reply;
    expect(screen.ScreenXValues.Int).toEqual([15, 250]);
    expect(screen.ScreenYValues.Int).toEqual([40, 190]);
  });
});

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
      `${stack().baseUrl}/rest/services/Hosted/${tiled}/MapServer/tile/11/${tile.row}/${tile.col}`,
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

  it('a feature service without a cache says it is not fixed-scale and faults for cache info', async () => {
    expect((await uncachedClient.IsFixedScaleMapAsync({ MapName: 'Layers' }))[0].Result).toBe(false);
    const fault = await faultOf(uncachedClient.GetTileCacheInfoAsync({ MapName: 'Layers' }));
    expect(fault.faultstring).toMatch(/is not cached/);
  });
});

describe('faults', () => {
  it('refuses a DOCTYPE with a client fault', async () => {
    const res = await fetch(soapEndpoint(features), {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('<faultcode>soap:Client</faultcode>');
  });

  it('refuses a body over the size cap with a client fault before reading it all', async () => {
    const res = await fetch(soapEndpoint(features), {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: `<x>${'a'.repeat(9 * 1024 * 1024)}</x>`,
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('is larger than');
  });

  it('answers an unknown service with a fault naming it', async () => {
    const { status, body } = await rawSoap('no_such_service', '<g:GetDefaultMapName/>');
    expect(status).toBe(500);
    expect(body.Fault.faultstring).toBe('Service not found: Hosted/no_such_service.');
  });

  it('answers an unknown map name with a fault', async () => {
    const fault = await faultOf(client.GetServerInfoAsync({ MapName: 'Other' }));
    expect(fault.faultstring).toBe('Invalid map name: Other.');
  });
});

describe('every operation over HTTP', () => {
  const [cx, cy] = lonLatToMercator(-87.630886, 41.885737);
  const requests = minimalRequests(VIEW, tileAt(cx, cy, 11));

  it('has a minimal request for each of the 55 operations', () => {
    expect(Object.keys(requests).sort()).toEqual([...SCHEMA.operations.keys()].sort());
  });

  it.each([...SCHEMA.operations.keys()].filter((op) => op !== 'GetLayerTile'))(
    '%s answers without a fault',
    async (op) => {
      const [reply] = (await tiledClient[`${op}Async`](requests[op])) as Reply;
      expect(reply).toBeTypeOf('object');
    },
  );

  it('GetLayerTile faults: a hosted map has a single fused cache, no layer caches', async () => {
    const fault = await faultOf(tiledClient.GetLayerTileAsync(requests.GetLayerTile));
    expect(fault.faultstring).toMatch(/has no layer cache/);
  });
});
