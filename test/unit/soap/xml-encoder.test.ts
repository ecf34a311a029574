import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import type { MapImage, RecordSet, TileCacheInfo } from '../../../soap/schema/generated-types.js';
import { encodeResponse } from '../../../soap/xml-encoder.js';
import { readFixture } from './fixtures.js';

/** Local names of the children of the first element called `parent`, in document order. */
function childOrder(xml: string, parent: string): string[] {
  const start = xml.indexOf('>', xml.indexOf(`<${parent}`)) + 1;
  const end = xml.indexOf(`</${parent}>`, start);
  const names: string[] = [];
  let depth = 0;
  for (const match of xml.slice(start, end).matchAll(/<(\/?)([A-Za-z]+)[^>]*?(\/?)>/g)) {
    if (match[1]) depth--;
    else {
      if (depth === 0) names.push(match[2]);
      if (!match[3]) depth++;
    }
  }
  return names;
}

const tileCacheInfo: TileCacheInfo = {
  SpatialReference: { $type: 'ProjectedCoordinateSystem', WKID: 102100, LatestWKID: 3857 },
  TileOrigin: { $type: 'PointN', X: -20037508.342787, Y: 20037508.342787 },
  TileCols: 256,
  TileRows: 256,
  DPI: 96,
  LODInfos: [
    { LevelID: 0, Scale: 591657527.591555, Resolution: 156543.033928 },
    { LevelID: 1, Scale: 295828763.795777, Resolution: 78271.5169639999 },
  ],
};

describe('encoding responses', () => {
  it('writes GetTileCacheInfo exactly as the reference response skeleton', () => {
    expect(encodeResponse('GetTileCacheInfo', tileCacheInfo)).toBe(
      readFixture('responses/get-tile-cache-info.xml').trim(),
    );
  });

  it('orders children by the schema sequence, not by object key order', () => {
    const image: MapImage = {
      ImageType: 'image/png',
      ImageDPI: 96,
      ImageWidth: 600,
      ImageHeight: 400,
      MapScale: 36111.909643,
      VisibleLayerIDs: [0, 2],
      Extent: { $type: 'EnvelopeN', YMax: 4, XMax: 3, YMin: 2, XMin: 1 },
      ImageURL: '',
      ImageData: new Uint8Array([137, 80, 78, 71]),
    };
    const xml = encodeResponse('ExportMapImage', image);
    expect(childOrder(xml, 'Result')).toEqual([
      'ImageData',
      'ImageURL',
      'Extent',
      'VisibleLayerIDs',
      'MapScale',
      'ImageHeight',
      'ImageWidth',
      'ImageDPI',
      'ImageType',
    ]);
    expect(childOrder(xml, 'Extent')).toEqual(['XMin', 'YMin', 'XMax', 'YMax']);
    expect(xml).toContain('<ImageData>iVBORw==</ImageData>');
    expect(xml).toContain(
      '<VisibleLayerIDs xsi:type="tns:ArrayOfInt"><Int>0</Int><Int>2</Int></VisibleLayerIDs>',
    );
  });

  it('writes a tile as base64 in Result', () => {
    const xml = encodeResponse('GetMapTile', Buffer.from('tile bytes'));
    expect(xml).toContain(
      '<tns:GetMapTileResponse><Result>dGlsZSBieXRlcw==</Result></tns:GetMapTileResponse>',
    );
  });

  it('writes FromMapPoints as two arrays without a Result', () => {
    const xml = encodeResponse('FromMapPoints', { ScreenXValues: [1, 2], ScreenYValues: [3, 4] });
    expect(childOrder(xml, 'tns:FromMapPointsResponse')).toEqual(['ScreenXValues', 'ScreenYValues']);
    expect(xml).not.toContain('<Result');
  });

  it('types record values as the reference shows: xs types, geometry subtypes and nil', () => {
    const records: RecordSet = {
      Fields: { FieldArray: [] },
      Records: [
        {
          Values: [
            1,
            'Main St',
            2.5,
            null,
            { $xsd: 'short', value: 3 },
            new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
            { $type: 'PolylineN', HasID: false, HasZ: false, HasM: false, PathArray: [] },
          ],
        },
      ],
    };
    const xml = encodeResponse('QueryFeatureData', records);
    expect(xml).toContain(
      [
        '<Values xsi:type="tns:ArrayOfValue">',
        '<Value xsi:type="xs:int">1</Value>',
        '<Value xsi:type="xs:string">Main St</Value>',
        '<Value xsi:type="xs:double">2.5</Value>',
        '<Value xsi:nil="true"/>',
        '<Value xsi:type="xs:short">3</Value>',
        '<Value xsi:type="xs:dateTime">2024-01-02T03:04:05.000Z</Value>',
        '<Value xsi:type="tns:PolylineN"><HasID>false</HasID><HasZ>false</HasZ><HasM>false</HasM>',
        '<PathArray xsi:type="tns:ArrayOfPath"></PathArray></Value>',
        '</Values>',
      ].join(''),
    );
  });

  it('leaves out an absent optional value but writes nil for a null nillable one', () => {
    const xml = encodeResponse('GetDocumentInfo', {
      PropertyArray: [{ Key: 'Title' }, { Key: 'Subject', Value: null }],
    });
    expect(xml).toContain(
      '<PropertySetProperty xsi:type="tns:PropertySetProperty"><Key>Title</Key></PropertySetProperty>',
    );
    expect(xml).toContain('<Key>Subject</Key><Value xsi:nil="true"/>');
  });

  it('refuses a null item in an array of ints', () => {
    expect(() => encodeResponse('QueryRowIDs', [1, null])).toThrow(
      'Response value at QueryRowIDsResponse/Result/Int[1] is missing.',
    );
  });

  it('formats doubles losslessly and with the XML Schema special values', () => {
    const scale = (value: number) =>
      encodeResponse('ComputeScale', value).match(/<Result>(.*)<\/Result>/)?.[1];
    expect(scale(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(Number(scale(156543.03392804097))).toBe(156543.03392804097);
    expect(scale(1e21)).toBe('1e+21');
    expect(scale(Number.NaN)).toBe('NaN');
    expect(scale(Number.NEGATIVE_INFINITY)).toBe('-INF');
  });

  it('escapes markup and replaces characters XML cannot carry', () => {
    const xml = encodeResponse('GetDefaultMapName', 'a < b & c > d\u0001\r');
    expect(xml).toContain('<Result>a &lt; b &amp; c &gt; d\uFFFD&#13;</Result>');
  });

  it('treats a missing required element as a server-side error', () => {
    expect(() => encodeResponse('GetCacheControlInfo', {})).toThrow(GeoError);
    expect(() => encodeResponse('GetCacheControlInfo', {})).toThrow(
      'Response value at GetCacheControlInfoResponse/Result/ClientCachingAllowed is missing.',
    );
  });

  it('refuses an enum value outside the enumeration', () => {
    expect(() => encodeResponse('GetSupportedImageReturnTypes', 'esriImageReturnURL')).toThrow(
      'geoImageReturnType',
    );
  });

  it('refuses an abstract declaration without a concrete $type', () => {
    expect(() => encodeResponse('ToMapPoints', { HasID: false, HasZ: false, HasM: false })).toThrow(
      'has no concrete $type for Multipoint',
    );
  });
});
