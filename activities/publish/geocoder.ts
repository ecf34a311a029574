/**
 * The batch geocoder publish calls for address and lookup layers. The default one runs the embedded
 * gazetteer locator (lib/geocode) in process, built once on first use; a deployment may pass another
 * implementation (e.g. a remote GeocodeServer) through the activity deps.
 */
import type { AddressRoleName, LocationPlan } from '../../db/schema/publish-request.js';
import type { CellValue } from '../../lib/ingest/index.js';
import type { Located } from './layer-sources.js';

export interface GeocodeRecord {
  objectId: number;
  address?: string;
  city?: string;
  region?: string;
  postal?: string;
  postalExt?: string;
  countryCode?: string;
  singleLine?: string;
}

export interface GeocodeResult {
  objectId: number;
  /** WGS84 longitude/latitude; null when unmatched. */
  location: { x: number; y: number } | null;
  /** M matched, T tied (placed at the best of equally good candidates), U unmatched. */
  status?: 'M' | 'T' | 'U';
  /** What the locator says of the match it placed the row at. */
  candidate?: { score: number; matchAddr: string; addrType: string };
}

/**
 * The locator output fields a layer keeps with candidateFieldsType AllFields, named as ArcGIS's
 * geocoding output names them; their values follow the source's columns in each geocoded row.
 */
export const CANDIDATE_FIELDS: readonly {
  name: string;
  alias: string;
  type: 'esriFieldTypeString' | 'esriFieldTypeDouble';
  length?: number;
}[] = [
  { name: 'Status', alias: 'Status', type: 'esriFieldTypeString', length: 1 },
  { name: 'Score', alias: 'Score', type: 'esriFieldTypeDouble' },
  { name: 'Match_addr', alias: 'Match_addr', type: 'esriFieldTypeString', length: 256 },
  { name: 'Addr_type', alias: 'Addr_type', type: 'esriFieldTypeString', length: 30 },
];

/** How the rows of a layer geocoded, reported in the publish status. */
export interface GeocodeCounts {
  matched: number;
  tied: number;
  unmatched: number;
}

export interface Geocoder {
  geocodeBatch(
    records: readonly GeocodeRecord[],
    options?: { countryCode?: string },
  ): Promise<GeocodeResult[]>;
}

const ROLE_KEYS: Record<AddressRoleName, keyof GeocodeRecord> = {
  Address: 'address',
  City: 'city',
  Region: 'region',
  Postal: 'postal',
  PostalExt: 'postalExt',
  CountryCode: 'countryCode',
};

const text = (v: CellValue): string | undefined => {
  if (v === null || v === undefined) return undefined;
  const s = (v instanceof Date ? v.toISOString() : String(v)).trim();
  return s === '' ? undefined : s;
};

/** Geocoder records for a batch of rows, from the address columns or a template like "{Street}, {City}". */
export function geocodeRecords(
  location: Extract<LocationPlan, { type: 'address' }>,
  headers: readonly string[],
  rows: readonly CellValue[][],
  firstRowNumber: number,
): GeocodeRecord[] {
  return rows.map((row, i) => {
    const record: GeocodeRecord = { objectId: firstRowNumber + i + 1 };
    for (const [role, index] of Object.entries(location.roles)) {
      const value = text(row[index as number]);
      if (value !== undefined)
        (record as unknown as Record<string, unknown>)[ROLE_KEYS[role as AddressRoleName]] = value;
    }
    if (location.template) {
      record.singleLine = location.template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const at = headers.findIndex((h) => h.trim().toLowerCase() === name.trim().toLowerCase());
        return at < 0 ? '' : (text(row[at]) ?? '');
      });
    }
    return record;
  });
}

export async function geocodeRows(
  geocoder: Geocoder,
  location: Extract<LocationPlan, { type: 'address' }>,
  headers: readonly string[],
  rows: readonly CellValue[][],
  firstRowNumber: number,
): Promise<{ geometries: Located[]; counts: GeocodeCounts; tiedRows: number[] }> {
  const records = geocodeRecords(location, headers, rows, firstRowNumber);
  // Positions in `rows` of the tied ones, kept for review though they publish.
  const tiedRows: number[] = [];
  const results = await geocoder.geocodeBatch(records, { countryCode: location.countryCode });
  const byId = new Map(results.map((r) => [r.objectId, r]));
  const counts: GeocodeCounts = { matched: 0, tied: 0, unmatched: 0 };
  if (location.candidateFields) {
    // The output fields' cells go after the source's columns (padded where a row is short).
    records.forEach((r, i) => {
      const result = byId.get(r.objectId);
      const row = rows[i] as CellValue[];
      while (row.length < headers.length) row.push(null);
      const c = result?.location ? result.candidate : undefined;
      row.push(result?.status ?? 'U', c?.score ?? 0, c?.matchAddr ?? '', c?.addrType ?? '');
    });
  }
  const geometries = records.map((r, i): Located => {
    const result = byId.get(r.objectId);
    const at = result?.location;
    if (!at) {
      counts.unmatched++;
      return { reason: 'The address was not found.' };
    }
    if (result.status === 'T') {
      counts.tied++;
      tiedRows.push(i);
    } else counts.matched++;
    return { x: at.x, y: at.y };
  });
  return { geometries, counts, tiedRows };
}
