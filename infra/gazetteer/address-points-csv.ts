import { Readable } from 'node:stream';
import Papa from 'papaparse';
import { badRequest } from '../../lib/errors.js';
import { addressPointColumns, addressPointFromRow } from '../../lib/geocode/address-point-row.js';
import type { GazetteerIndex } from '../../lib/geocode/gazetteer-index.js';
import type { AddressPointRecord } from '../../lib/geocode/gazetteer-types.js';

export interface AddressPointsCsvOptions {
  /** ISO alpha-2 stamped on every point (OpenAddresses files are per country). */
  countryCode?: string;
  batchSize?: number;
}

/**
 * Streams an OpenAddresses-style CSV (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,...)
 * as batches of address points, so a file of millions of rows never sits in memory as rows.
 */
export async function* readAddressPointsCsv(
  source: Readable | string,
  options: AddressPointsCsvOptions = {},
): AsyncGenerator<AddressPointRecord[]> {
  const batchSize = options.batchSize ?? 5000;
  const input = typeof source === 'string' ? Readable.from([source]) : source;
  const parser = input.pipe(Papa.parse(Papa.NODE_STREAM_INPUT, { header: true, skipEmptyLines: true }));
  let columns: ReturnType<typeof addressPointColumns>;
  let batch: AddressPointRecord[] = [];
  for await (const row of parser as AsyncIterable<Record<string, string>>) {
    if (!columns) {
      columns = addressPointColumns(Object.keys(row));
      if (!columns) throw badRequest('The address points file needs LON, LAT, NUMBER and STREET columns.');
    }
    const point = addressPointFromRow(row, columns, options.countryCode);
    if (point) batch.push(point);
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Adds every point of a CSV to a locator's index; returns how many were added. */
export async function loadAddressPointsCsv(
  index: GazetteerIndex,
  source: Readable | string,
  options: AddressPointsCsvOptions = {},
): Promise<number> {
  let added = 0;
  for await (const batch of readAddressPointsCsv(source, options)) {
    index.addAddressPoints(batch);
    added += batch.length;
  }
  return added;
}
