import { describe, expect, it } from 'vitest';
import { toWireValue } from '../../../lib/query/wire-values.js';

describe('attribute values on the wire', () => {
  it('sends instants as epoch milliseconds from a Date or PostgreSQL text', () => {
    expect(toWireValue(new Date('2020-01-01T00:00:00Z'), 'esriFieldTypeDate')).toBe(1577836800000);
    expect(toWireValue('2020-01-01 05:30:00+05:30', 'esriFieldTypeDate')).toBe(1577836800000);
    expect(toWireValue('2020-01-01 00:00:00+00', 'esriFieldTypeTimestampOffset')).toBe(1577836800000);
  });

  it('sends date-only values as yyyy-mm-dd and times as text', () => {
    expect(toWireValue(new Date('2021-03-04T00:00:00Z'), 'esriFieldTypeDateOnly')).toBe('2021-03-04');
    expect(toWireValue('2021-03-04', 'esriFieldTypeDateOnly')).toBe('2021-03-04');
    expect(toWireValue('10:15:00', 'esriFieldTypeTimeOnly')).toBe('10:15:00');
  });

  it('sends numbers that drivers give as strings or bigints as numbers', () => {
    expect(toWireValue('12', 'esriFieldTypeBigInteger')).toBe(12);
    expect(toWireValue(12n, 'esriFieldTypeBigInteger')).toBe(12);
    expect(toWireValue('1.5', 'esriFieldTypeDouble')).toBe(1.5);
  });

  it('keeps text and nulls as they are', () => {
    expect(toWireValue('{ABC}', 'esriFieldTypeGlobalID')).toBe('{ABC}');
    expect(toWireValue(undefined, 'esriFieldTypeString')).toBeNull();
  });
});
