import { describe, expect, it } from 'vitest';
import { postgresTimestampMillis, toWireValue } from '../../../lib/query/wire-values.js';

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

  it('reads PostgreSQL timestamps digit by digit to the instant Date.parse gives', () => {
    // The reading before the digit-by-digit one, kept here as the reference.
    const parsed = (text: string) => Date.parse(text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'));
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    const two = (n: number) => String(n).padStart(2, '0');
    for (let i = 0; i < 5000; i++) {
      const fraction = next(7);
      const digits = Array.from({ length: fraction }, () => next(10)).join('');
      const offset =
        next(3) === 0
          ? `${next(2) ? '+' : '-'}${two(next(15))}:${two(next(4) * 15)}`
          : `${next(2) ? '+' : '-'}${two(next(15))}`;
      const text = `${String(100 + next(9900)).padStart(4, '0')}-${two(1 + next(12))}-${two(1 + next(31))} ${two(next(24))}:${two(next(60))}:${two(next(60))}${fraction ? `.${digits}` : ''}${offset}`;
      expect(postgresTimestampMillis(text), text).toBe(parsed(text));
      expect(toWireValue(text, 'esriFieldTypeDate'), text).toBe(parsed(text));
    }
    expect(postgresTimestampMillis('2024-03-05 00:00:00+00')).toBe(Date.UTC(2024, 2, 5));
    expect(postgresTimestampMillis('2024-03-05 10:20:30.123456-05:30')).toBe(
      Date.UTC(2024, 2, 5, 15, 50, 30, 123),
    );
  });

  it('leaves other timestamp forms to the general reading', () => {
    for (const text of [
      '0044-03-15 00:00:00+00 BC',
      '0050-01-01 00:00:00+00',
      '12345-01-01 00:00:00+00',
      '2020-01-01 00:00:00+05:30:15',
      '2020-13-01 00:00:00+00',
      '2020-01-01 24:00:00+00',
      '2020-01-01 00:00:00.+00',
      '2020-01-01T00:00:00+00',
      'infinity',
    ])
      expect(postgresTimestampMillis(text), text).toBeUndefined();
    // The general reading still answers what it can read, and null for the rest.
    expect(toWireValue('2020-01-01 24:00:00+00', 'esriFieldTypeDate')).toBe(Date.UTC(2020, 0, 2));
    expect(toWireValue('infinity', 'esriFieldTypeDate')).toBeNull();
  });
});
