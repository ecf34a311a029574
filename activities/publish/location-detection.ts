/**
 * Location columns found even when some rows are broken. The ingest detector rejects a column pair
 * when any sample value is not a number; a file with a few bad coordinates is still a point file,
 * so when the whole sample finds nothing, each row votes and a pair most rows agree on wins.
 */
import { type CellValue, detectLocationFields, type LocationDetection } from '../../lib/ingest/index.js';

export function detectLocation(
  headers: readonly string[],
  records: readonly Record<string, CellValue>[],
  options: { decimalComma?: boolean } = {},
): LocationDetection {
  const whole = detectLocationFields(headers, records, options);
  if (whole.locationType === 'coordinates' || records.length < 2) return whole;
  const votes = new Map<string, { n: number; found: LocationDetection }>();
  for (const record of records) {
    const found = detectLocationFields(headers, [record], options);
    if (found.locationType !== 'coordinates') continue;
    const key = `${found.latitudeFieldName}\n${found.longitudeFieldName}`;
    const v = votes.get(key) ?? { n: 0, found };
    v.n++;
    votes.set(key, v);
  }
  const best = [...votes.values()].sort((a, b) => b.n - a.n)[0];
  if (!best || best.n * 2 <= records.length) return whole;
  return {
    ...best.found,
    notes: [...best.found.notes, `${records.length - best.n} sample rows have no usable coordinates.`],
  };
}
