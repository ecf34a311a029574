import { describe, expect, it } from 'vitest';
import type { EsriFieldType } from '../../../lib/query/field-types.js';
import {
  encodeCount,
  encodeExtent,
  encodeFeatureResult,
  encodeIds,
} from '../../../lib/render/pbf-feature-collection.js';
import {
  attributesOf,
  decodeFeatureCollection,
  membersOf,
  worldGeometry,
} from '../../fixtures/pbf/decode-feature-collection.js';

const field = (name: string, type: EsriFieldType) => ({ name, type, alias: `${name} alias` });
const fields = [
  field('OBJECTID', 'esriFieldTypeOID'),
  field('Name', 'esriFieldTypeString'),
  field('Pop', 'esriFieldTypeInteger'),
  field('Rank', 'esriFieldTypeSmallInteger'),
  field('Area', 'esriFieldTypeDouble'),
  field('Ratio', 'esriFieldTypeSingle'),
  field('Opened', 'esriFieldTypeDate'),
  field('Big', 'esriFieldTypeBigInteger'),
  field('Day', 'esriFieldTypeDateOnly'),
  field('Key', 'esriFieldTypeGUID'),
];
/** The encoder's attribute source over JSON-answer features. */
const byName = (features: { attributes: Record<string, unknown> }[]) => ({
  featureCount: features.length,
  attribute: (i: number, f: { name: string }) => features[i].attributes[f.name],
});
const upperLeft = {
  originPosition: 'upperLeft' as const,
  scale: [0.5, 0.25] as [number, number],
  translate: [100, 200] as [number, number],
};

describe('encodeFeatureResult', () => {
  const bytes = encodeFeatureResult({
    objectIdFieldName: 'OBJECTID',
    globalIdFieldName: '',
    geometryType: 'esriGeometryPolygon',
    spatialReference: { wkid: 102100, latestWkid: 3857 },
    exceededTransferLimit: true,
    transform: upperLeft,
    fields,
    ...byName([
      {
        attributes: {
          OBJECTID: 7,
          Name: 'Zoë',
          Pop: -1200,
          Rank: 3,
          Area: 12.125,
          Ratio: 0.5,
          Opened: 1700000000000,
          Big: 9007199254740991,
          Day: '2024-02-29',
          Key: '{6F1A7E3C-0000-4000-8000-00000000000A}',
        },
      },
      { attributes: { OBJECTID: 8, Name: null } },
    ]),
    // An outer ring of three steps, then a hole starting again from absolute cells; no geometry for 8.
    geometries: [{ lengths: [4, 3], coords: [0, 0, 4, 0, 0, 4, -4, -4, 1, 1, 1, 0, -1, 1] }, null],
  });
  const decoded = decodeFeatureCollection(bytes);
  const result = decoded.queryResult.featureResult!;

  it('writes the header ArcGIS clients read', () => {
    expect(decoded.version).toBe('1.0');
    expect(result.objectIdFieldName).toBe('OBJECTID');
    expect(result.uniqueIdField).toEqual({ name: 'OBJECTID', isSystemMaintained: true });
    expect(result.geometryType).toBe('esriGeometryTypePolygon');
    expect(result.spatialReference).toEqual({ wkid: 102100, lastestWkid: 3857 });
    expect(result.exceededTransferLimit).toBe(true);
    expect(result.transform).toEqual({
      quantizeOriginPostion: 'upperLeft',
      scale: { xScale: 0.5, yScale: 0.25 },
      translate: { xTranslate: 100, yTranslate: 200 },
    });
    expect(result.fields.map((f) => [f.name, f.fieldType, f.alias])).toEqual(
      fields.map((f) => [f.name, f.type, f.alias]),
    );
  });

  it('types each attribute value by its field', () => {
    expect(attributesOf(result, 0)).toEqual({
      OBJECTID: 7,
      Name: 'Zoë',
      Pop: -1200,
      Rank: 3,
      Area: 12.125,
      Ratio: 0.5,
      Opened: 1700000000000,
      Big: 9007199254740991,
      Day: '2024-02-29',
      Key: '{6F1A7E3C-0000-4000-8000-00000000000A}',
    });
    expect(membersOf(result, 0)).toEqual({
      OBJECTID: 'uint_value',
      Name: 'string_value',
      Pop: 'sint_value',
      Rank: 'sint_value',
      Area: 'double_value',
      Ratio: 'float_value',
      Opened: 'sint64_value',
      Big: 'sint64_value',
      Day: 'string_value',
      Key: 'string_value',
    });
  });

  it('writes a null as a Value with no member and a missing geometry as none', () => {
    expect(attributesOf(result, 1).Name).toBeNull();
    expect(attributesOf(result, 1).Pop).toBeNull();
    expect(result.features?.[1].geometry).toBeUndefined();
  });

  it('flattens rings into lengths and coords that de-quantize to the world coordinates', () => {
    expect(result.features?.[0].geometry).toEqual({
      lengths: [4, 3],
      coords: [0, 0, 4, 0, 0, 4, -4, -4, 1, 1, 1, 0, -1, 1],
    });
    // x = 100 + qx·0.5, y = 200 − qy·0.25.
    expect(
      worldGeometry('esriGeometryTypePolygon', result.features![0].geometry!, result.transform!),
    ).toEqual({
      rings: [
        [
          [100, 200],
          [102, 200],
          [102, 199],
          [100, 200],
        ],
        [
          [100.5, 199.75],
          [101, 199.75],
          [100.5, 199.5],
        ],
      ],
    });
  });

  it('writes points as two absolute cells without lengths', () => {
    const point = decodeFeatureCollection(
      encodeFeatureResult({
        objectIdFieldName: 'OBJECTID',
        globalIdFieldName: '',
        geometryType: 'esriGeometryPoint',
        exceededTransferLimit: false,
        transform: upperLeft,
        fields: [fields[0]],
        ...byName([{ attributes: { OBJECTID: 1 } }]),
        geometries: [{ lengths: [], coords: [-3, 8] }],
      }),
    ).queryResult.featureResult!;
    expect(point.geometryType).toBe('esriGeometryTypePoint');
    expect(point.exceededTransferLimit).toBeFalsy();
    expect(point.features?.[0].geometry).toEqual({ coords: [-3, 8] });
    expect(worldGeometry('esriGeometryTypePoint', point.features![0].geometry!, point.transform!)).toEqual({
      x: 98.5,
      y: 198,
    });
  });

  it('says esriGeometryTypeNone for answers of attributes only', () => {
    const stats = decodeFeatureCollection(
      encodeFeatureResult({
        objectIdFieldName: 'OBJECTID',
        globalIdFieldName: '',
        exceededTransferLimit: false,
        fields: [field('total', 'esriFieldTypeDouble')],
        ...byName([{ attributes: { total: 2.5 } }]),
      }),
    ).queryResult.featureResult!;
    expect(stats.geometryType).toBe('esriGeometryTypeNone');
    expect(stats.transform).toBeUndefined();
    expect(attributesOf(stats, 0)).toEqual({ total: 2.5 });
  });
});

describe('count, ids and extent answers', () => {
  it('writes a CountResult', () => {
    expect(decodeFeatureCollection(encodeCount(1234)).queryResult).toEqual({
      countResult: { count: 1234 },
      Results: 'countResult',
    });
  });

  it('writes an ObjectIdsResult', () => {
    expect(decodeFeatureCollection(encodeIds('FID', [3, 1, 70000])).queryResult.idsResult).toEqual({
      objectIdFieldName: 'FID',
      objectIds: [3, 1, 70000],
    });
  });

  it('writes an ExtentCountResult with the envelope and its spatial reference', () => {
    const r = decodeFeatureCollection(encodeExtent([1, 2, 3, 4], { wkid: 4326 }, 9)).queryResult;
    expect(r.extentCountResult).toEqual({
      extent: { XMin: 1, YMin: 2, XMax: 3, YMax: 4, SpatialReference: { wkid: 4326 } },
      count: 9,
    });
  });
});
