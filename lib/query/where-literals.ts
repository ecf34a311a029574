import { invalidWhere } from './query-errors.js';

/**
 * Date, time and interval literal texts. ArcGIS documents `DATE 'yyyy-mm-dd'` and
 * `TIMESTAMP 'yyyy-mm-dd hh:mm:ss'`; clients also send a `T` separator, fractional seconds, a `Z` or
 * offset suffix and the US `m/d/yyyy` form, so those are read too. Times without an offset are UTC,
 * which is how hosted layers store dates.
 */
export type ParsedDateText = { type: 'date'; value: string } | { type: 'timestamp'; value: string };

const ISO =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const US =
  /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?\s*(AM|PM)?)?$/i;

export function parseDateText(text: string): ParsedDateText | null {
  const t = text.trim();
  const iso = ISO.exec(t);
  if (iso) {
    const [, y, mo, d, h, mi, s, frac, zone] = iso;
    return build(+y, +mo, +d, h, mi, s, frac, zone ?? null, null);
  }
  const us = US.exec(t);
  if (us) {
    const [, mo, d, y, h, mi, s, frac, meridiem] = us;
    return build(+y, +mo, +d, h, mi, s, frac, null, meridiem ?? null);
  }
  return null;
}

function build(
  y: number,
  mo: number,
  d: number,
  h: string | undefined,
  mi: string | undefined,
  s: string | undefined,
  frac: string | undefined,
  zone: string | null,
  meridiem: string | null,
): ParsedDateText | null {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  const day = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}`;
  if (h === undefined) return { type: 'date', value: day };
  let hour = +h;
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem.toUpperCase() === 'PM' ? 12 : 0);
  }
  const minute = +(mi ?? 0);
  const second = +(s ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = frac ? Math.floor(+`0.${frac}` * 1000) : 0;
  const offsetMinutes = zone ? parseOffset(zone) : 0;
  const epoch = Date.UTC(y, mo - 1, d, hour, minute, second, ms) - offsetMinutes * 60_000;
  return { type: 'timestamp', value: new Date(epoch).toISOString() };
}

function parseOffset(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (+digits.slice(0, 2) * 60 + +(digits.slice(2) || 0));
}

const daysInMonth = (y: number, mo: number): number => new Date(Date.UTC(y, mo, 0)).getUTCDate();
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** A DATE literal: a calendar day; a time part makes it an instant, as some clients send. */
export function dateLiteral(text: string): ParsedDateText {
  const parsed = parseDateText(text);
  if (!parsed) throw invalidWhere(`'${text}' is not a valid date; use DATE 'yyyy-mm-dd'`);
  return parsed;
}

/** A TIMESTAMP literal: always an instant; a bare day means its midnight UTC. */
export function timestampLiteral(text: string): string {
  const parsed = parseDateText(text);
  if (!parsed) throw invalidWhere(`'${text}' is not a valid timestamp; use TIMESTAMP 'yyyy-mm-dd hh:mm:ss'`);
  return parsed.type === 'timestamp' ? parsed.value : `${parsed.value}T00:00:00.000Z`;
}

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/;

export function timeLiteral(text: string): string {
  const m = TIME.exec(text.trim());
  if (!m || +m[1] > 23 || +m[2] > 59 || +(m[3] ?? 0) > 59) {
    throw invalidWhere(`'${text}' is not a valid time; use TIME 'hh:mm:ss'`);
  }
  const base = `${pad(+m[1], 2)}:${m[2]}:${m[3] ?? '00'}`;
  return m[4] ? `${base}.${m[4]}` : base;
}

export const INTERVAL_UNITS = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

const DAY_TO_SECOND = /^(\d+)\s+(\d{1,2}):(\d{2}):(\d{2}(?:\.\d{1,6})?)$/;

/**
 * `INTERVAL '3' DAY` or `INTERVAL '1 12:00:00' DAY TO SECOND`, as PostgreSQL interval text
 * (`3 day`, `1 day 12:00:00`).
 */
export function intervalLiteral(text: string, unit: IntervalUnit, toSecond: boolean): string {
  const t = text.trim();
  if (toSecond) {
    const m = DAY_TO_SECOND.exec(t);
    if (unit !== 'DAY' || !m) {
      throw invalidWhere(`'${text}' is not a valid interval; use INTERVAL 'd hh:mm:ss' DAY TO SECOND`);
    }
    return `${m[1]} day ${pad(+m[2], 2)}:${m[3]}:${m[4]}`;
  }
  if (!/^-?\d+(?:\.\d+)?$/.test(t)) throw invalidWhere(`'${text}' is not a valid interval amount`);
  return `${t} ${unit.toLowerCase()}`;
}
