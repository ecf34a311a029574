import { describe, expect, it } from 'vitest';
import {
  MAX_FIELD_NAME_LENGTH,
  sanitizeFieldName,
  sanitizeFieldNames,
} from '../../../lib/ingest/field-names.js';

describe('sanitizeFieldName', () => {
  it('replaces runs of other characters with one underscore and trims them at the ends', () => {
    expect(sanitizeFieldName('  Population (2020) % ', 0)).toBe('Population_2020');
  });

  it('prefixes a name starting with a digit', () => {
    expect(sanitizeFieldName('3rd_party', 0)).toBe('F3rd_party');
  });

  it('names an empty header after its position', () => {
    expect(sanitizeFieldName('', 4)).toBe('Field5');
    expect(sanitizeFieldName('***', 0)).toBe('Field1');
  });

  it('strips a byte-order mark left on the first header', () => {
    expect(sanitizeFieldName('\uFEFFid', 0)).toBe('id');
  });

  it('suffixes names the service or SQL reserves, whatever their case', () => {
    expect(sanitizeFieldName('Shape', 0)).toBe('Shape_');
    expect(sanitizeFieldName('FID', 0)).toBe('FID_');
    expect(sanitizeFieldName('Order', 0)).toBe('Order_');
  });

  it('cuts names to the PostgreSQL identifier length', () => {
    expect(sanitizeFieldName('a'.repeat(100), 0)).toHaveLength(MAX_FIELD_NAME_LENGTH);
  });
});

describe('sanitizeFieldNames', () => {
  it('makes duplicates unique regardless of case', () => {
    expect(sanitizeFieldNames(['Name', 'name', 'NAME', 'Name_1'])).toEqual([
      'Name',
      'name_1',
      'NAME_2',
      'Name_1_1',
    ]);
  });

  it('keeps a suffixed long name within the length limit', () => {
    const long = 'x'.repeat(70);
    const [a, b] = sanitizeFieldNames([long, long]);
    expect(a).toHaveLength(63);
    expect(b).toHaveLength(63);
    expect(b.endsWith('_1')).toBe(true);
  });

  it('avoids names already taken by the layer', () => {
    expect(sanitizeFieldNames(['GlobalId2', 'OBJECTID_'], { taken: ['OBJECTID_'] })).toEqual([
      'GlobalId2',
      'OBJECTID_1',
    ]);
  });
});
