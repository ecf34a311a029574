import { describe, expect, it } from 'vitest';
import { normalizeFlags } from '../../../lib/query/normalize/flags.js';
import { normalizeFormat } from '../../../lib/query/normalize/format.js';
import {
  normalizeGeometryPrecision,
  normalizeMaxAllowableOffset,
} from '../../../lib/query/normalize/generalization.js';
import { normalizeObjectIds } from '../../../lib/query/normalize/object-ids.js';
import { normalizeResultOffset, normalizeResultRecordCount } from '../../../lib/query/normalize/paging.js';
import { spatialReferenceParameter } from '../../../lib/query/normalize/spatial-reference.js';
import { normalizeWhere } from '../../../lib/query/normalize/where.js';
import { problemOf } from './query-errors.js';

describe('where', () => {
  it('treats absent, blank and 1=1 as no filter', () => {
    expect(normalizeWhere(undefined)).toBeNull();
    expect(normalizeWhere('  ')).toBeNull();
    expect(normalizeWhere('1=1')).toBeNull();
    expect(normalizeWhere('1 = 1')).toBeNull();
  });

  it('keeps a real filter as its syntax tree', () => {
    expect(normalizeWhere('POP > 5')).toMatchObject({ type: 'compare', operator: '>' });
  });

  it('keeps 1=0, which filters everything out', () => {
    expect(normalizeWhere('1=0')).toMatchObject({ type: 'compare' });
  });

  it('reports a syntax error under the where parameter', () => {
    expect(problemOf('where', () => normalizeWhere("a = 'x"))).toMatch(/unterminated/);
  });
});

describe('objectIds', () => {
  it('reads a comma-separated list with spaces, dropping duplicates', () => {
    expect(normalizeObjectIds('3, 1,2,3')).toEqual([3, 1, 2]);
  });

  it('reads a JSON array', () => {
    expect(normalizeObjectIds('[5,6]')).toEqual([5, 6]);
  });

  it('is null when absent', () => {
    expect(normalizeObjectIds(undefined)).toBeNull();
  });

  it('refuses a value that is not an id', () => {
    expect(problemOf('objectIds', () => normalizeObjectIds('1,abc'))).toBe("'abc' is not an object id");
    expect(problemOf('objectIds', () => normalizeObjectIds('1,-2'))).toBe("'-2' is not an object id");
    expect(problemOf('objectIds', () => normalizeObjectIds('1.5'))).toBe("'1.5' is not an object id");
  });
});

describe('boolean switches', () => {
  it('apply the documented defaults', () => {
    expect(normalizeFlags({})).toEqual({
      returnGeometry: true,
      returnCountOnly: false,
      returnIdsOnly: false,
      returnExtentOnly: false,
      returnDistinctValues: false,
      returnZ: false,
      returnM: false,
    });
  });

  it('read true and false in any case', () => {
    expect(normalizeFlags({ returngeometry: 'FALSE', returncountonly: 'True' })).toMatchObject({
      returnGeometry: false,
      returnCountOnly: true,
    });
  });

  it('refuse anything else, naming the parameter', () => {
    expect(problemOf('returnIdsOnly', () => normalizeFlags({ returnidsonly: 'yes' }))).toBe(
      "'yes' is not true or false",
    );
  });
});

describe('paging', () => {
  it('defaults the offset to 0 and leaves the count to the layer', () => {
    expect(normalizeResultOffset(undefined)).toBe(0);
    expect(normalizeResultRecordCount(undefined)).toBeNull();
  });

  it('reads integers', () => {
    expect(normalizeResultOffset('2000')).toBe(2000);
    expect(normalizeResultRecordCount('50')).toBe(50);
  });

  it('refuses negative offsets, zero counts and fractions', () => {
    expect(problemOf('resultOffset', () => normalizeResultOffset('-1'))).toMatch(/outside 0/);
    expect(problemOf('resultRecordCount', () => normalizeResultRecordCount('0'))).toMatch(/outside 1/);
    expect(problemOf('resultRecordCount', () => normalizeResultRecordCount('2.5'))).toBe(
      "'2.5' is not an integer",
    );
  });
});

describe('spatial references', () => {
  it('reads a well-known id', () => {
    expect(spatialReferenceParameter('outSR', '4326')).toEqual({ wkid: 4326 });
  });

  it('reads the JSON object form with latestWkid or wkt', () => {
    expect(spatialReferenceParameter('outSR', '{"wkid":102100,"latestWkid":3857}')).toEqual({
      wkid: 102100,
      latestWkid: 3857,
    });
    expect(spatialReferenceParameter('inSR', '{"wkt":"GEOGCS[...]"}')).toEqual({ wkt: 'GEOGCS[...]' });
  });

  it('is null when absent or blank', () => {
    expect(spatialReferenceParameter('outSR', '')).toBeNull();
  });

  it('refuses other values, naming the parameter', () => {
    expect(problemOf('outSR', () => spatialReferenceParameter('outSR', 'EPSG:4326'))).toMatch(
      /not a well-known id/,
    );
    expect(problemOf('inSR', () => spatialReferenceParameter('inSR', '{}'))).toMatch(
      /needs wkid, latestWkid or wkt/,
    );
    expect(problemOf('inSR', () => spatialReferenceParameter('inSR', '{"wkid":'))).toBe(
      'the value is not valid JSON',
    );
  });
});

describe('format', () => {
  it('defaults to json and accepts pjson, geojson and pbf in any case', () => {
    expect(normalizeFormat(undefined)).toBe('json');
    expect(normalizeFormat('PJSON')).toBe('pjson');
    expect(normalizeFormat('geoJSON')).toBe('geojson');
    expect(normalizeFormat('PBF')).toBe('pbf');
  });

  it('refuses html and unknown formats with a clear reason', () => {
    expect(problemOf('f', () => normalizeFormat('html'))).toMatch(/not a supported format/);
    expect(problemOf('f', () => normalizeFormat('kmz'))).toMatch(/use json, pjson, geojson or pbf/);
  });
});

describe('generalization', () => {
  it('accepts maxAllowableOffset, 0 meaning none', () => {
    expect(normalizeMaxAllowableOffset('10.5')).toBe(10.5);
    expect(normalizeMaxAllowableOffset('0')).toBeNull();
    expect(problemOf('maxAllowableOffset', () => normalizeMaxAllowableOffset('-1'))).toMatch(/negative/);
  });

  it('accepts geometryPrecision from 0 to 17 places', () => {
    expect(normalizeGeometryPrecision('6')).toBe(6);
    expect(problemOf('geometryPrecision', () => normalizeGeometryPrecision('18'))).toMatch(/outside 0..17/);
  });
});
