import { beforeAll, describe, expect, it } from 'vitest';
import { lonLatToMercator } from '../../../lib/tiles/web-mercator.js';
import { GEO_NAMESPACE } from '../../../soap/schema/model.js';
import { SCHEMA } from '../../../soap/schema/registry.js';
import { createSchemaValidator } from '../../unit/soap/schema-validator.js';
import { uniqueName } from '../publish/publish-client.js';
import { signIn } from '../support/portal-client.js';
import {
  faultOf,
  HOWARD,
  publishStations,
  type Reply,
  rawSoap,
  restQuery,
  securedEndpoint,
  soapClient,
} from './soap-client.js';

const features = uniqueName('soap_stations');
let client: any;

beforeAll(async () => {
  const token = await signIn();
  await publishStations(token, features);
  client = await soapClient(features);
}, 300_000);

describe('map information', () => {
  it('serves a WSDL naming the service and declaring all 55 operations', async () => {
    const wsdl = await (await fetch(`${await securedEndpoint(features)}&wsdl`)).text();
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

  it('a strict client sends back the DefaultMapDescription GetServerInfo gave, valid both ways', async () => {
    const wsdl = await (await fetch(`${await securedEndpoint(features)}&wsdl`)).text();
    const validator = createSchemaValidator(wsdl);
    try {
      const [, raw] = (await client.GetServerInfoAsync({ MapName: 'Layers' })) as Reply;
      expect(validator.errors(raw)).toEqual([]);
      const md = /<DefaultMapDescription\b[^>]*>[\s\S]*?<\/DefaultMapDescription>/.exec(raw)?.[0] ?? '';
      expect(md).toContain('<Rotation>');
      const request = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"',
        ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:tns="${GEO_NAMESPACE}"><soap:Body>`,
        '<tns:ExportMapImage>',
        md
          .replace(/^<DefaultMapDescription/, '<MapDescription')
          .replace(/DefaultMapDescription>$/, 'MapDescription>'),
        '<ImageDescription><ImageType><ImageFormat>geoImagePNG</ImageFormat>',
        '<ImageReturnType>geoImageReturnMimeData</ImageReturnType></ImageType>',
        '<ImageDisplay><ImageHeight>64</ImageHeight><ImageWidth>80</ImageWidth><ImageDPI>96</ImageDPI></ImageDisplay>',
        '</ImageDescription></tns:ExportMapImage></soap:Body></soap:Envelope>',
      ].join('');
      expect(validator.errors(request)).toEqual([]);
      const res = await fetch(await securedEndpoint(features), {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
        body: request,
      });
      const answer = await res.text();
      expect(res.status).toBe(200);
      expect(validator.errors(answer)).toEqual([]);
      expect(answer).toContain('<ImageWidth>80</ImageWidth>');
    } finally {
      validator.dispose();
    }
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
    const rest = await restQuery(features, { where, returnCountOnly: 'true' });
    expect(reply.Result).toBe(rest.count);
    expect(reply.Result).toBe(3);
  });

  it('QueryFeatureIDs returns the object ids the REST query returns', async () => {
    const [reply] = (await client.QueryFeatureIDsAsync({
      MapName: 'Layers',
      LayerID: 0,
      QueryFilter: { WhereClause: "Line = 'Red'", Resolution: 0 },
    })) as Reply;
    const rest = await restQuery(features, { where: "Line = 'Red'", returnIdsOnly: 'true' });
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
    const rest = await restQuery(features, { where: "Line = 'Red' AND Riders > 12000", outFields: '*' });
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

describe('faults', () => {
  it('refuses a DOCTYPE with a client fault', async () => {
    const res = await fetch(await securedEndpoint(features), {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('<faultcode>soap:Client</faultcode>');
  });

  it('refuses a body over the size cap with a client fault before reading it all', async () => {
    const res = await fetch(await securedEndpoint(features), {
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

describe('a feature service without a tile cache', () => {
  it('a feature service without a cache says it is not fixed-scale and faults for cache info', async () => {
    expect((await client.IsFixedScaleMapAsync({ MapName: 'Layers' }))[0].Result).toBe(false);
    const fault = await faultOf(client.GetTileCacheInfoAsync({ MapName: 'Layers' }));
    expect(fault.faultstring).toMatch(/is not cached/);
  });
});
