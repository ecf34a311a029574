import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import { createFieldCatalog } from '../../../lib/query/field-catalog.js';
import { featureRowOf, parseShape, shapeOfRecord } from '../../../lib/query/row-mapping.js';

describe('field catalog', () => {
  const catalog = createFieldCatalog([
    { name: 'OBJECTID', column: 'objectid', type: 'esriFieldTypeOID' },
    { name: 'Zone_Code', column: 'zone_code', type: 'esriFieldTypeString' },
  ]);

  it('finds a field whatever the case of the name', () => {
    expect(catalog.lookup('zone_CODE')?.column).toBe('zone_code');
    expect(catalog.lookup('objectid')?.name).toBe('OBJECTID');
  });

  it('answers undefined for a field it does not have', () => {
    expect(catalog.lookup('zone')).toBeUndefined();
  });

  it('lists the fields in declaration order', () => {
    expect(catalog.all().map((f) => f.name)).toEqual(['OBJECTID', 'Zone_Code']);
  });

  it('refuses a physical column that is not a plain identifier, as a server error', () => {
    try {
      createFieldCatalog([{ name: 'x', column: 'x"; drop table t; --', type: 'esriFieldTypeString' }]);
      throw new Error('expected a refusal');
    } catch (e) {
      expect(e).toBeInstanceOf(GeoError);
      expect((e as GeoError).code).toBe(500);
    }
  });
});

describe('row mapping', () => {
  it('maps columns to Esri names and parses the stored shape', () => {
    const columns = [
      { name: 'OBJECTID', column: 'objectid', type: 'esriFieldTypeOID' as const },
      { name: 'Zone_Code', column: 'zone_code', type: 'esriFieldTypeString' as const },
    ];
    expect(
      featureRowOf(
        { columns, selectShape: true },
        { objectid: '4', zone_code: 'R1', shape: '{"x":1,"y":2}' },
      ),
    ).toEqual({
      objectid: 4,
      attrs: { OBJECTID: '4', Zone_Code: 'R1' },
      shape: { x: 1, y: 2 },
    });
  });

  it('reads a point loaded in bulk from its two doubles, and a row with neither as null', () => {
    const columns = [{ name: 'OBJECTID', column: 'objectid', type: 'esriFieldTypeOID' as const }];
    // As SHAPE_COLUMNS reads them: no text, the box's corner as two doubles (postgres.js gives numbers).
    expect(
      featureRowOf(
        { columns, selectShape: true },
        { objectid: 9, shape: null, shape_x: -9780000.25, shape_y: 5110000.5 },
      ).shape,
    ).toEqual({ x: -9780000.25, y: 5110000.5 });
    // Text wins whenever a row has it (an edited point, a polygon).
    expect(shapeOfRecord({ shape: '{"x":3,"y":4}', shape_x: null, shape_y: null })).toEqual({ x: 3, y: 4 });
    expect(shapeOfRecord({ shape: null, shape_x: null, shape_y: null })).toBeNull();
    expect(shapeOfRecord({ shape: null, shape_x: '-0.5', shape_y: '1e-7' })).toEqual({ x: -0.5, y: 1e-7 });
  });

  it('takes a shape the driver already parsed, and an empty one as null', () => {
    expect(parseShape({ x: 1, y: 2 })).toEqual({ x: 1, y: 2 });
    expect(parseShape(null)).toBeNull();
  });

  it('reports an unreadable stored shape as a server error', () => {
    expect(() => parseShape('{not json')).toThrowError(GeoError);
  });
});
