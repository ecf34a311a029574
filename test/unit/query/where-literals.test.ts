import { describe, expect, it } from 'vitest';
import {
  intervalLiteral,
  parseDateText,
  timeLiteral,
  timestampLiteral,
} from '../../../lib/query/where-literals.js';

describe('date and time literal texts', () => {
  it('reads a day', () => {
    expect(parseDateText('2012-05-29')).toEqual({ type: 'date', value: '2012-05-29' });
  });

  it('reads times with a T or a space, fractions and offsets, as UTC instants', () => {
    expect(parseDateText('2012-05-29T15:14:25.5Z')).toEqual({
      type: 'timestamp',
      value: '2012-05-29T15:14:25.500Z',
    });
    expect(parseDateText('2012-05-29 17:14:25 +02:00')).toEqual({
      type: 'timestamp',
      value: '2012-05-29T15:14:25.000Z',
    });
    expect(parseDateText('2012-05-29 15:14')).toEqual({
      type: 'timestamp',
      value: '2012-05-29T15:14:00.000Z',
    });
  });

  it('reads the US month/day/year form with AM and PM', () => {
    expect(parseDateText('5/29/2012')).toEqual({ type: 'date', value: '2012-05-29' });
    expect(parseDateText('5/29/2012 3:14:25 PM')).toEqual({
      type: 'timestamp',
      value: '2012-05-29T15:14:25.000Z',
    });
    expect(parseDateText('5/29/2012 12:00:00 AM')).toEqual({
      type: 'timestamp',
      value: '2012-05-29T00:00:00.000Z',
    });
  });

  it('rejects impossible calendar days and times', () => {
    expect(parseDateText('2021-02-29')).toBeNull();
    expect(parseDateText('2020-13-01')).toBeNull();
    expect(parseDateText('2020-01-01 24:00:00')).toBeNull();
    expect(parseDateText('yesterday')).toBeNull();
  });

  it('reads a TIMESTAMP with only a day as its midnight', () => {
    expect(timestampLiteral('2012-05-29')).toBe('2012-05-29T00:00:00.000Z');
  });

  it('reads TIME and INTERVAL literals', () => {
    expect(timeLiteral('9:05')).toBe('09:05:00');
    expect(intervalLiteral('2', 'HOUR', false)).toBe('2 hour');
    expect(intervalLiteral('3 04:05:06', 'DAY', true)).toBe('3 day 04:05:06');
  });
});
