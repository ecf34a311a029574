import { describe, expect, it } from 'vitest';
import { ESRI_FIELD_TYPES, FIELD_STORAGE } from '../../../lib/query/field-types.js';
import { fragment, join, param, quoteIdentifier, toPositional, wrap } from '../../../lib/query/sql-chunks.js';

describe('SQL chunks', () => {
  it('merges adjacent text and keeps parameters apart', () => {
    expect(fragment('a', 'b', { param: 1 }, 'c').chunks).toEqual(['ab', { param: 1 }, 'c']);
  });

  it('joins and wraps fragments', () => {
    const f = wrap(join([param(1), param(2)], ' AND '));
    expect(f.chunks).toEqual(['(', { param: 1 }, ' AND ', { param: 2 }, ')']);
  });

  it('numbers parameters in order for positional drivers', () => {
    expect(toPositional(fragment('x = ', param('a'), ' OR y = ', param(2)))).toEqual({
      text: 'x = $1 OR y = $2',
      params: ['a', 2],
    });
  });

  it('doubles quotes inside identifiers', () => {
    expect(quoteIdentifier('a"b')).toBe('"a""b"');
  });
});

describe('field types', () => {
  it('covers every esriFieldType of the FeatureServer reference with a storage type', () => {
    expect(ESRI_FIELD_TYPES.sort()).toEqual(
      [
        'esriFieldTypeBigInteger',
        'esriFieldTypeDate',
        'esriFieldTypeDateOnly',
        'esriFieldTypeDouble',
        'esriFieldTypeGUID',
        'esriFieldTypeGeometry',
        'esriFieldTypeGlobalID',
        'esriFieldTypeInteger',
        'esriFieldTypeOID',
        'esriFieldTypeSingle',
        'esriFieldTypeSmallInteger',
        'esriFieldTypeString',
        'esriFieldTypeTimeOnly',
        'esriFieldTypeTimestampOffset',
      ].sort(),
    );
    expect(FIELD_STORAGE.esriFieldTypeDate.sqlType).toBe('timestamptz');
    expect(FIELD_STORAGE.esriFieldTypeSingle.sqlType).toBe('real');
    expect(FIELD_STORAGE.esriFieldTypeGeometry.sqlType).toBeNull();
  });
});
