import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { complex, operation } from '../../../soap/schema/model.js';
import { buildSchema, SCHEMA } from '../../../soap/schema/registry.js';
import { renderTypeScript } from '../../../soap/schema/typescript-emitter.js';
import { specOperationNames } from './fixtures.js';

const names = (type: string) => SCHEMA.fieldsOf(type).map((f) => f.name);

describe('the schema table', () => {
  it('declares exactly the 55 operations of the spec, in the spec order', () => {
    expect([...SCHEMA.operations.keys()]).toEqual(specOperationNames());
    expect(SCHEMA.operations.size).toBe(55);
  });

  it('lists the request elements of QueryFeatureData2 in sequence order', () => {
    const op = SCHEMA.operations.get('QueryFeatureData2');
    expect(op?.request.map((e) => `${e.name}:${e.type}`)).toEqual([
      'MapName:string',
      'LayerDescription:LayerDescription',
      'QueryFilter:QueryFilter',
      'QueryResultOptions:QueryResultOptions',
    ]);
  });

  it('answers FromMapPoints with two arrays instead of a Result', () => {
    expect(SCHEMA.operations.get('FromMapPoints')?.response.map((e) => e.name)).toEqual([
      'ScreenXValues',
      'ScreenYValues',
    ]);
  });

  it('marks GetMapTile Format as the only optional request element', () => {
    const op = SCHEMA.operations.get('GetMapTile');
    expect(op?.request.filter((e) => e.optional).map((e) => e.name)).toEqual(['Format']);
  });

  it('keeps the reference sequence of TileCacheInfo and MapServerInfo', () => {
    expect(names('TileCacheInfo')).toEqual([
      'SpatialReference',
      'TileOrigin',
      'TileCols',
      'TileRows',
      'DPI',
      'LODInfos',
      'PreciseDPI',
    ]);
    expect(names('MapServerInfo').slice(0, 13)).toEqual([
      'Name',
      'Description',
      'FullExtent',
      'Extent',
      'SpatialReference',
      'MapLayerInfos',
      'BackgroundColor',
      'Bookmarks',
      'DefaultMapDescription',
      'Units',
      'SupportedImageReturnTypes',
      'BackgroundSymbol',
      'CopyrightText',
    ]);
  });

  it('puts inherited elements before the subtype’s own (SpatialFilter after QueryFilter)', () => {
    expect(names('SpatialFilter')).toEqual([
      'SubFields',
      'WhereClause',
      'SpatialReferenceFieldName',
      'Resolution',
      'OutputSpatialReference',
      'FIDSet',
      'PostfixClause',
      'FilterDefs',
      'PrefixClause',
      'SearchOrder',
      'SpatialRel',
      'SpatialRelDescription',
      'FilterGeometry',
      'GeometryFieldName',
      'FilterOwnsGeometry',
    ]);
  });

  it('resolves the concrete kinds of abstract bases', () => {
    expect(SCHEMA.concreteTypesOf('SpatialReference')).toEqual([
      'ProjectedCoordinateSystem',
      'GeographicCoordinateSystem',
      'UnknownCoordinateSystem',
    ]);
    expect(SCHEMA.concreteTypesOf('MapArea')).toEqual([
      'MapExtent',
      'CenterAndScale',
      'CenterAndSize',
      'FeatureExtent',
      'MapServerBookmark',
    ]);
    expect(SCHEMA.concreteTypesOf('FeatureRenderer')).toEqual([
      'SimpleRenderer',
      'UniqueValueRenderer',
      'ClassBreaksRenderer',
    ]);
  });

  it('gives every abstract type at least one concrete kind', () => {
    const orphans = [...SCHEMA.types.values()].filter(
      (t) => t.kind === 'complex' && t.abstract && SCHEMA.concreteTypesOf(t.name).length === 0,
    );
    expect(orphans.map((t) => t.name)).toEqual([]);
  });

  it('spells every enumeration type and vendor-prefixed value with the geo prefix', () => {
    const enums = [...SCHEMA.types.values()].filter((t) => t.kind === 'enum');
    expect(enums.every((t) => t.name.startsWith('geo'))).toBe(true);
    expect(enums.flatMap((t) => t.values).filter((v) => v.startsWith('esri'))).toEqual([]);
    expect(SCHEMA.types.get('geoImageReturnType')).toMatchObject({
      values: ['geoImageReturnURL', 'geoImageReturnMimeData'],
    });
  });

  it('refuses a table that refers to an undeclared type', () => {
    expect(() => buildSchema([complex('A', ['B Missing'])], [])).toThrow('A.B: unknown type Missing');
    expect(() => buildSchema([], [operation('Op', ['X Nowhere'], 'int')])).toThrow('unknown type Nowhere');
  });

  it('matches the committed generated TypeScript types', () => {
    const committed = readFileSync(
      new URL('../../../soap/schema/generated-types.ts', import.meta.url),
      'utf8',
    );
    expect(renderTypeScript(SCHEMA)).toBe(committed);
  });
});
