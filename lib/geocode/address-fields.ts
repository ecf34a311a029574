import { badRequest } from '../errors.js';
import type { BatchRecord } from './locator.js';

/**
 * Publish parameters' addressFields: locator roles mapped to the columns of the table being published,
 * e.g. {"Address": "A1-Address", "City": "A1-City", "Region": "A1-ProvinceState", "Postal": "A1-Zip"}.
 */
export type AddressFieldMap = Partial<
  Record<
    'SingleLine' | 'Address' | 'Neighborhood' | 'City' | 'Subregion' | 'Region' | 'Postal' | 'CountryCode',
    string
  >
>;

const ROLE_TO_INPUT = {
  SingleLine: 'singleLine',
  Address: 'address',
  Neighborhood: 'neighborhood',
  City: 'city',
  Subregion: 'subregion',
  Region: 'region',
  Postal: 'postal',
  CountryCode: 'countryCode',
} as const;

/** One table row as a batch record: each role's column read as text (a ZIP typed as a number too). */
export function batchRecordFromRow(
  row: Record<string, unknown>,
  fields: AddressFieldMap,
  objectId: number,
): BatchRecord {
  const record: BatchRecord = { objectId };
  for (const [role, input] of Object.entries(ROLE_TO_INPUT) as [
    keyof AddressFieldMap,
    (typeof ROLE_TO_INPUT)[keyof AddressFieldMap],
  ][]) {
    const column = fields[role];
    if (!column) continue;
    const value = row[column];
    if (value === null || value === undefined || value === '') continue;
    record[input] = String(value).trim();
  }
  return record;
}

/** Checks that the address fields name columns the table has, before any row is geocoded. */
export function checkAddressFields(fields: AddressFieldMap, columns: readonly string[]): void {
  const named = Object.values(fields).filter((c): c is string => Boolean(c));
  if (named.length === 0) throw badRequest('addressFields must name at least one column.', []);
  const missing = named.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw badRequest('addressFields name columns the data does not have.', missing);
}

/** Records cut into batches no larger than the locator's MaxBatchSize (ArcGIS ignores any extra). */
export function batchesOf<T>(records: readonly T[], maxBatchSize: number): T[][] {
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1)
    throw badRequest('Batch size must be a positive integer.', []);
  const batches: T[][] = [];
  for (let i = 0; i < records.length; i += maxBatchSize) batches.push(records.slice(i, i + maxBatchSize));
  return batches;
}
