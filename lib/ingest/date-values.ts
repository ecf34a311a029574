import type { DateFormat } from './field-types.js';

/**
 * Date text in the formats hosted publishing reads: ISO 8601 (2024-03-05, 2024-03-05T14:30:00Z),
 * year first with slashes (2024/03/05 14:30), month- or day-first with slashes or dashes
 * (03/05/2024 2:30 PM) and day-first with dots (05.03.2024, as written where the decimal mark is a
 * comma). Naive times are taken in the given UTC offset (UTC by default).
 */

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const YMD =
  /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*([AP]M)?)?$/i;
const SLASHED =
  /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*([AP]M)?)?$/i;

const DOTTED =
  /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*([AP]M)?)?$/i;

/**
 * The formats a text could be in. A slashed date whose parts are both ≤ 12 fits month- and
 * day-first alike; inference keeps both until some value settles it.
 */
export function dateFormatsOf(text: string): DateFormat[] {
  const t = text.trim();
  if (ISO.test(t)) return parseDate(t, 'iso') === null ? [] : ['iso'];
  if (YMD.test(t)) return parseDate(t, 'ymd') === null ? [] : ['ymd'];
  if (DOTTED.test(t)) return parseDate(t, 'dmy') === null ? [] : ['dmy'];
  if (!SLASHED.test(t)) return [];
  return (['mdy', 'dmy'] as const).filter((f) => parseDate(t, f) !== null);
}

/** Epoch milliseconds of a date text in the given format, or null when it is not a valid date. */
export function parseDate(text: string, format: DateFormat, offsetMinutes = 0): number | null {
  const t = text.trim();
  const m =
    format === 'iso'
      ? ISO.exec(t)
      : format === 'ymd'
        ? YMD.exec(t)
        : (SLASHED.exec(t) ?? (format === 'dmy' ? DOTTED.exec(t) : null));
  if (!m) return null;
  let year: number;
  let month: number;
  let day: number;
  if (format === 'iso' || format === 'ymd') {
    [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  } else if (format === 'mdy') {
    [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  } else {
    [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  }
  let hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (format !== 'iso' && m[8]) {
    if (hour < 1 || hour > 12) return null;
    const pm = m[8].toUpperCase() === 'PM';
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const zone = format === 'iso' ? m[8] : undefined;
  return utc - (zone === undefined ? offsetMinutes : zoneOffsetMinutes(zone)) * 60_000;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function zoneOffsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
}

/** Windows time-zone names that publishParameters' dateFieldsTimeReference carries, as IANA zones. */
const WINDOWS_ZONES: Record<string, string> = {
  UTC: 'UTC',
  'Coordinated Universal Time': 'UTC',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Mountain Standard Time': 'America/Denver',
  'US Mountain Standard Time': 'America/Phoenix',
  'Central Standard Time': 'America/Chicago',
  'Eastern Standard Time': 'America/New_York',
  'Alaskan Standard Time': 'America/Anchorage',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'Atlantic Standard Time': 'America/Halifax',
  'GMT Standard Time': 'Europe/London',
  'W. Europe Standard Time': 'Europe/Berlin',
  'Romance Standard Time': 'Europe/Paris',
  'Central Europe Standard Time': 'Europe/Budapest',
  'E. Europe Standard Time': 'Europe/Chisinau',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'China Standard Time': 'Asia/Shanghai',
  'India Standard Time': 'Asia/Kolkata',
  'New Zealand Standard Time': 'Pacific/Auckland',
};

/**
 * One formatter per zone: making an `Intl.DateTimeFormat` costs about 0.4 ms (loading the zone's rules),
 * using one a few microseconds, and a load asks for two offsets per distinct date text.
 */
const ZONE_FORMATS = new Map<string, Intl.DateTimeFormat>();
const ZONE_FORMATS_LIMIT = 64;

function zoneFormat(zone: string): Intl.DateTimeFormat {
  let format = ZONE_FORMATS.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (ZONE_FORMATS.size >= ZONE_FORMATS_LIMIT) ZONE_FORMATS.clear();
    ZONE_FORMATS.set(zone, format);
  }
  return format;
}

const HOUR_MS = 3_600_000;
/** Offsets of whole UTC hours in which a zone's offset does not change, by zone and hour. */
const HOUR_OFFSETS = new Map<string, Map<number, number>>();
const HOUR_OFFSETS_LIMIT = 200_000;
let hourOffsets = 0;

/** The zone's offset at an instant, from its formatter (the local time it shows, to the second). */
function offsetFromFormat(zone: string, epochMs: number): number {
  const parts = zoneFormat(zone).formatToParts(new Date(epochMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

/**
 * The UTC offset in minutes of a time zone (IANA name, or a Windows name as in
 * dateFieldsTimeReference) at a given instant. Unknown zones throw RangeError from Intl.
 *
 * Asking the formatter takes some 30 µs; a load asks twice per distinct date text, and a file's
 * instants fall in far fewer hours than it has texts. So an hour whose offset is the same at its first
 * and last millisecond (every hour but the one of a change; no zone changes twice within an hour) is
 * remembered, and an instant in it is answered from there.
 */
export function timeZoneOffsetMinutes(timeZone: string, epochMs: number): number {
  const zone = WINDOWS_ZONES[timeZone] ?? timeZone;
  if (!Number.isFinite(epochMs)) return offsetFromFormat(zone, epochMs);
  const hour = Math.floor(epochMs / HOUR_MS);
  let hours = HOUR_OFFSETS.get(zone);
  const known = hours?.get(hour);
  if (known !== undefined) return known;
  const first = offsetFromFormat(zone, hour * HOUR_MS);
  if (first !== offsetFromFormat(zone, hour * HOUR_MS + HOUR_MS - 1)) return offsetFromFormat(zone, epochMs);
  if (hourOffsets >= HOUR_OFFSETS_LIMIT) {
    HOUR_OFFSETS.clear();
    hourOffsets = 0;
    hours = undefined;
  }
  if (hours === undefined) {
    hours = new Map();
    HOUR_OFFSETS.set(zone, hours);
  }
  hours.set(hour, first);
  hourOffsets++;
  return first;
}

/** A local date text in a named time zone, as epoch ms (two passes settle DST changes). */
export function parseDateInZone(text: string, format: DateFormat, timeZone: string): number | null {
  const naive = parseDate(text, format, 0);
  if (naive === null) return null;
  if (format === 'iso' && ISO.exec(text.trim())?.[8] !== undefined) return naive; // it states its own offset
  const first = naive - timeZoneOffsetMinutes(timeZone, naive) * 60_000;
  return naive - timeZoneOffsetMinutes(timeZone, first) * 60_000;
}
