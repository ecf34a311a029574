import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDateInZone, timeZoneOffsetMinutes } from '../../../lib/ingest/date-values.js';

/** The zone's offset in minutes at an instant as Intl names it ("GMT-03:30", "GMT+10:36:20", "GMT"). */
const named = new Map<string, Intl.DateTimeFormat>();
function namedOffset(zone: string, epochMs: number): number {
  let format = named.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    named.set(zone, format);
  }
  const name = format.formatToParts(new Date(epochMs)).find((p) => p.type === 'timeZoneName')?.value;
  const m = /^GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(name ?? '');
  if (!m) throw new Error(`unexpected offset name ${name}`);
  if (m[1] === undefined) return 0;
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  return Math.round(((m[1] === '-' ? -1 : 1) * seconds) / 60);
}

// Zones with daylight time on the hour and on the half hour, offsets of half and quarter hours, an
// offset of seconds (local mean time), and a zone that skipped a day.
const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'Asia/Kathmandu',
  'Pacific/Apia',
  'Europe/Dublin',
];

describe('a time zone offset', () => {
  it('is the offset Intl names, at any instant, also in the hour of a change and after one asked before', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2100, 0, 1) }),
        (zone, ms) => {
          expect(timeZoneOffsetMinutes(zone, ms)).toBe(namedOffset(zone, ms));
        },
      ),
      { numRuns: 3000 },
    );
    // Every minute around this year's changes (New York on the hour in UTC, Lord Howe's half-hour
    // step at 2:00 local, St John's at 2:00 local of a -3:30 zone), asked twice each, in order and back.
    const around = [
      ['America/New_York', Date.UTC(2024, 2, 10, 7)],
      ['America/New_York', Date.UTC(2024, 10, 3, 6)],
      ['Australia/Lord_Howe', Date.UTC(2024, 3, 6, 15)],
      ['Australia/Lord_Howe', Date.UTC(2024, 9, 5, 15, 30)],
      ['America/St_Johns', Date.UTC(2024, 2, 10, 5, 30)],
    ] as const;
    let changes = 0;
    for (const [zone, at] of around) {
      const instants: number[] = [];
      for (let m = -150; m <= 150; m++) instants.push(at + m * 60_000, at + m * 60_000 - 1);
      for (const ms of [...instants, ...instants.reverse()]) {
        expect(timeZoneOffsetMinutes(zone, ms)).toBe(namedOffset(zone, ms));
      }
      if (namedOffset(zone, at - 3 * 3_600_000) !== namedOffset(zone, at + 3 * 3_600_000)) changes++;
    }
    expect(changes).toBe(around.length);
    expect(timeZoneOffsetMinutes('Eastern Standard Time', Date.UTC(2024, 6, 1))).toBe(-240);
    expect(() => timeZoneOffsetMinutes('Not/AZone', 0)).toThrow(RangeError);
  });

  it('places local texts around a change as two passes settle them, the offsets remembered or not', () => {
    // 02:30 on the night New York springs forward does not exist and is read as 01:30 standard time;
    // 01:30 on the night it falls back comes twice and is read as the first (daylight time).
    expect(parseDateInZone('2024-03-10 01:30', 'iso', 'America/New_York')).toBe(Date.UTC(2024, 2, 10, 6, 30));
    expect(parseDateInZone('2024-03-10 02:30', 'iso', 'America/New_York')).toBe(Date.UTC(2024, 2, 10, 6, 30));
    expect(parseDateInZone('2024-03-10 03:30', 'iso', 'America/New_York')).toBe(Date.UTC(2024, 2, 10, 7, 30));
    expect(parseDateInZone('2024-11-03 00:30', 'iso', 'America/New_York')).toBe(Date.UTC(2024, 10, 3, 4, 30));
    expect(parseDateInZone('2024-11-03 01:30', 'iso', 'America/New_York')).toBe(Date.UTC(2024, 10, 3, 5, 30));
    expect(parseDateInZone('2024-11-03 02:30', 'iso', 'America/New_York')).toBe(Date.UTC(2024, 10, 3, 7, 30));
  });
});
