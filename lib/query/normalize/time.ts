import type { TimeFilter } from '../normalized-query.js';
import { fail, present, type QueryParams, readNumber } from './parameter-values.js';

/**
 * `time`: an instant `t` or an extent `t1,t2` in epoch milliseconds, `null` for an open end
 * (`null,t2`: everything up to t2). An instant is the extent `t,t`. `timeRelation` may only be
 * esriTimeRelationOverlaps, the default: the other relations are refused rather than read as it.
 */
export function normalizeTime(params: QueryParams): TimeFilter | null {
  const relation = present(params.timerelation);
  if (relation !== undefined && relation.toLowerCase() !== 'esritimerelationoverlaps') {
    throw fail('timeRelation', `'${relation}' is not supported; use esriTimeRelationOverlaps`);
  }
  return readTimeExtent(params.time);
}

/** The `time` value shared by queries and the map export. */
export function readTimeExtent(value: string | undefined): TimeFilter | null {
  const text = present(value);
  if (text === undefined) return null;
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length > 2) throw fail('time', 'expected an instant or start,end in epoch milliseconds');
  const read = (s: string): number | null => {
    if (s.toLowerCase() === 'null' || s === '') return null;
    const n = readNumber('time', s);
    // Years 1 to 9999, the range ISO 8601 text (and so the bound parameter) writes plainly.
    if (n < -62135596800000 || n > 253402300799999) throw fail('time', `${s} is outside the years 1 to 9999`);
    return n;
  };
  const start = read(parts[0]);
  const end = parts.length === 2 ? read(parts[1]) : start;
  if (start === null && end === null) return null;
  if (start !== null && end !== null && end < start) throw fail('time', 'the end is before the start');
  return { start, end };
}
