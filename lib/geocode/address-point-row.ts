import type { AddressPointRecord } from './gazetteer-types.js';

/** Columns of an OpenAddresses CSV, as its header names them (matched case-insensitively). */
const COLUMNS = ['lon', 'lat', 'number', 'street', 'unit', 'city', 'district', 'region', 'postcode'] as const;

export type AddressPointColumns = Record<(typeof COLUMNS)[number], string | undefined>;

/** Which header names hold which column (LON or lon or Lon...); undefined when LON/LAT/NUMBER/STREET lack. */
export function addressPointColumns(header: readonly string[]): AddressPointColumns | undefined {
  const byLower = new Map(header.map((h) => [h.trim().toLowerCase(), h]));
  const columns = Object.fromEntries(COLUMNS.map((c) => [c, byLower.get(c)])) as AddressPointColumns;
  return columns.lon && columns.lat && columns.number && columns.street ? columns : undefined;
}

/** One CSV row as an address point; null when it has no usable coordinates, number or street. */
export function addressPointFromRow(
  row: Record<string, string | undefined>,
  columns: AddressPointColumns,
  countryCode?: string,
): AddressPointRecord | null {
  const text = (column: string | undefined) => (column ? (row[column] ?? '').trim() : '');
  const lon = Number(text(columns.lon));
  const lat = Number(text(columns.lat));
  const number = text(columns.number);
  const street = text(columns.street);
  if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lon) > 180)
    return null;
  if (!number || !street || text(columns.lon) === '' || text(columns.lat) === '') return null;
  const optional = (column: string | undefined) => text(column) || undefined;
  return {
    lon,
    lat,
    number,
    street,
    unit: optional(columns.unit),
    city: optional(columns.city),
    district: optional(columns.district),
    region: optional(columns.region),
    postcode: optional(columns.postcode),
    countryCode,
  };
}
