import { describe, expect, it } from 'vitest';
import { SoapFault } from '../../../soap/fault.js';
import { decodeRequest } from '../../../soap/xml-decoder.js';
import { readFixture } from './fixtures.js';

const envelope = (body: string) =>
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:g="urn:any"><soap:Body>${body}</soap:Body></soap:Envelope>`;

function faultOf(raw: string): SoapFault {
  try {
    decodeRequest(raw);
  } catch (e) {
    if (e instanceof SoapFault) return e;
    throw e;
  }
  throw new Error('expected a fault');
}

describe('decoding requests', () => {
  it('decodes a node-soap GetMapTile into typed numbers and strings', () => {
    expect(decodeRequest(readFixture('requests/get-map-tile.xml'))).toEqual({
      operation: 'GetMapTile',
      request: { MapName: 'Layers', Level: 4, Row: 5, Column: 8, Format: 'png' },
    });
  });

  it('keeps entities decoded and spaces intact in a WhereClause', () => {
    const { request } = decodeRequest(readFixture('requests/query-feature-count.xml'));
    expect(request).toEqual({
      MapName: 'Layers',
      LayerID: 2,
      QueryFilter: {
        $type: 'QueryFilter',
        SubFields: '*',
        WhereClause: "NAME = 'Fish & Chips' AND POP < 5000 AND NOTE = '  two spaces'",
        Resolution: 0,
      },
    });
  });

  it('resolves an xsi:typed SpatialFilter with a PolygonN whatever the prefixes', () => {
    const { request } = decodeRequest(readFixture('requests/query-feature-count-spatial.xml'));
    const filter = request.QueryFilter as Record<string, unknown>;
    expect(filter.$type).toBe('SpatialFilter');
    expect(filter.SpatialRel).toBe('geoSpatialRelIntersects');
    expect(filter.SpatialRelDescription).toBe('');
    expect(filter.FilterGeometry).toEqual({
      $type: 'PolygonN',
      HasID: false,
      HasZ: false,
      HasM: false,
      RingArray: [
        {
          $type: 'Ring',
          PointArray: [
            { $type: 'PointN', X: 0, Y: 0 },
            { $type: 'PointN', X: 0, Y: 10 },
            { $type: 'PointN', X: 10, Y: 10 },
            { $type: 'PointN', X: 0, Y: 0 },
          ],
        },
      ],
    });
  });

  it('decodes a .NET-style ExportMapImage with an xsi:typed MapExtent and EnvelopeN', () => {
    const { operation, request } = decodeRequest(readFixture('requests/export-map-image.xml'));
    expect(operation).toBe('ExportMapImage');
    const map = request.MapDescription as Record<string, unknown>;
    expect(map.MapArea).toEqual({
      $type: 'MapExtent',
      Extent: {
        $type: 'EnvelopeN',
        XMin: -13046161.5,
        YMin: 4036389.25,
        XMax: -13024639.75,
        YMax: 4051123.125,
        SpatialReference: { $type: 'ProjectedCoordinateSystem', WKID: 102100, LatestWKID: 3857 },
      },
    });
    expect(map.TransparentColor).toEqual({
      $type: 'RgbColor',
      UseWindowsDithering: true,
      AlphaValue: 255,
      Red: 254,
      Green: 255,
      Blue: 253,
    });
    expect(request.ImageDescription).toEqual({
      ImageType: { ImageFormat: 'geoImagePNG24', ImageReturnType: 'geoImageReturnMimeData' },
      ImageDisplay: { ImageHeight: 400, ImageWidth: 600, ImageDPI: 96 },
    });
  });

  it('turns LayerDescriptions into an array with absent optional elements left undefined', () => {
    const { request } = decodeRequest(readFixture('requests/export-map-image.xml'));
    const layers = (request.MapDescription as { LayerDescriptions: Record<string, unknown>[] })
      .LayerDescriptions;
    expect(layers).toHaveLength(2);
    expect(layers[0]).toMatchObject({
      $type: 'LayerDescription',
      LayerID: 0,
      Visible: true,
      SelectionFeatures: [12, 17],
      DefinitionExpression: "STATE_NAME = 'California'",
    });
    expect(layers[1]).toMatchObject({ LayerID: 1, Visible: false, SelectionBufferDistance: 2.5 });
    expect('SelectionFeatures' in layers[1]).toBe(false);
    expect(layers[1].DefinitionExpression).toBe('');
  });

  it('reads text given in a CDATA section', () => {
    const { request } = decodeRequest(
      envelope('<g:GetServerInfo><MapName><![CDATA[Roads & <Rails>]]></MapName></g:GetServerInfo>'),
    );
    expect(request.MapName).toBe('Roads & <Rails>');
  });

  it('accepts an operation with no children', () => {
    expect(decodeRequest(envelope('<g:GetMapCount/>'))).toEqual({ operation: 'GetMapCount', request: {} });
  });

  it('reads a missing required string and array the way .NET proxies omit nulls', () => {
    const { request } = decodeRequest(
      envelope(
        '<g:QueryHyperlinks><MapDescription><Name>Layers</Name><Rotation>0</Rotation></MapDescription><MapImageDisplay><ImageHeight>1</ImageHeight><ImageWidth>1</ImageWidth><ImageDPI>96</ImageDPI></MapImageDisplay></g:QueryHyperlinks>',
      ),
    );
    expect(request.LayerIDs).toEqual([]);
  });

  it('refuses an enum value outside the enumeration', () => {
    const fault = faultOf(
      envelope(
        '<g:QueryAttachmentData><MapName>m</MapName><TableID>1</TableID><AttachmentIDs/><TransportType>esriTransportTypeUrl</TransportType></g:QueryAttachmentData>',
      ),
    );
    expect(fault.faultCode).toBe('Client');
    expect(fault.message).toContain('geoTransportType');
  });

  it('refuses an int that is not an integer or out of range', () => {
    expect(faultOf(envelope('<g:GetMapName><Index>1.5</Index></g:GetMapName>')).message).toContain(
      'Invalid int at GetMapName/Index',
    );
    expect(faultOf(envelope('<g:GetMapName><Index>2147483648</Index></g:GetMapName>')).faultCode).toBe(
      'Client',
    );
  });

  it('refuses a missing required number', () => {
    expect(faultOf(envelope('<g:GetMapName/>')).message).toBe('Missing required element GetMapName/Index.');
  });

  it('refuses an abstract element without xsi:type', () => {
    const fault = faultOf(
      envelope(
        '<g:ComputeDistance><MapName>m</MapName><FromPoint><X>1</X><Y>2</Y></FromPoint><ToPoint xsi:type="g:PointN"><X>1</X><Y>2</Y></ToPoint><Units>geoMeters</Units></g:ComputeDistance>',
      ),
    );
    expect(fault.message).toContain('ComputeDistance/FromPoint needs an xsi:type');
  });

  it('refuses an xsi:type that is not a kind of the declared type', () => {
    const fault = faultOf(
      envelope(
        '<g:ComputeDistance><MapName>m</MapName><FromPoint xsi:type="g:EnvelopeN"/><ToPoint xsi:type="g:PointN"><X>1</X><Y>2</Y></ToPoint><Units>geoMeters</Units></g:ComputeDistance>',
      ),
    );
    expect(fault.message).toBe('xsi:type g:EnvelopeN at ComputeDistance/FromPoint is not a Point.');
  });

  it('refuses an unknown operation', () => {
    const fault = faultOf(readFixture('hostile/unknown-operation.xml'));
    expect(fault.faultCode).toBe('Client');
    expect(fault.message).toBe('Unknown operation: DeleteEverything.');
  });
});
