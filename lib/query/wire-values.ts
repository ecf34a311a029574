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
    // PostgreSQL text output (`2020-01-02 03:04:05+00`) is ISO 8601 once the space is a `T`
    // and the hour-only offset has its minutes.
    const iso = value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
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
