import { type EsriFieldType, FIELD_STORAGE } from './field-types.js';

/**
 * An attribute value as it leaves the server. Drivers differ (postgres-js gives bigint and
 * numeric as strings, PGlite gives numbers; timestamptz may come as Date or text), so each type
 * is brought to one wire form: instants as epoch milliseconds, DateOnly as `yyyy-mm-dd`,
 * TimeOnly as `hh:mm:ss`, numbers as JSON numbers.
 */
export function toWireValue(value: unknown, type: EsriFieldType): unknown {
  if (value === null || value === undefined) return null;
  const storage = FIELD_STORAGE[type];
  switch (storage.kind) {
    case 'timestamp':
      return epochMillis(value);
    case 'date':
      return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
    case 'time':
      return String(value);
    case 'number':
      return toNumber(value);
    default:
      return value;
  }
}

export function epochMillis(value: unknown): number | null {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const fast = postgresTimestampMillis(value);
    if (fast !== undefined) return fast;
    // PostgreSQL text output (`2020-01-02 03:04:05+00`) is ISO 8601 once the space is a `T`
    // and the hour-only offset has its minutes.
    const iso = value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/**
 * PostgreSQL's text output of a timestamptz in ISO style (`2020-01-02 03:04:05.678+00`, the offset as
 * `±hh` or `±hh:mm`), read digit by digit: the same instant `Date.parse` gives for it (fractions past the
 * millisecond cut, as Date.parse cuts them), without a regular expression and a second string a value.
 * Undefined for any other form (a year before 100 or past 9999, BC, infinity, an offset with seconds),
 * which the general reading takes.
 */
export function postgresTimestampMillis(s: string): number | undefined {
  const n = s.length;
  if (n < 22 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 32) return undefined;
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let i = 19;
  let millis = 0;
  if (s.charCodeAt(i) === 46) {
    i++;
    const from = i;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i === from) return undefined;
    const taken = Math.min(3, i - from);
    millis = digits(s, from, taken) * (taken === 1 ? 100 : taken === 2 ? 10 : 1);
  }
  const sign = s.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return undefined;
  const offsetHours = digits(s, i + 1, 2);
  let offsetMinutes = 0;
  if (i + 3 === n) {
    // ±hh
  } else if (i + 6 === n && s.charCodeAt(i + 3) === 58) {
    offsetMinutes = digits(s, i + 4, 2);
    if (offsetMinutes > 59) return undefined;
  } else {
    return undefined;
  }
  const fields = year + month + day + hour + minute + second + millis + offsetHours + offsetMinutes;
  if (offsetHours > 23 || Number.isNaN(fields)) return undefined;
  const offset = (sign === 45 ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60000;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** The decimal number of `count` digits at `at`; NaN when one is not a digit. */
function digits(s: string, at: number, count: number): number {
  let v = 0;
  for (let k = at; k < at + count; k++) {
    const c = s.charCodeAt(k);
    if (!isDigit(c)) return Number.NaN;
    v = v * 10 + (c - 48);
  }
  return v;
}

export function toNumber(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  return value;
}
