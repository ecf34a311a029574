/**
 * Lookup layers (locationType lookup): each row's value (a country name or code, a state, a postal code)
 * matched to its boundary polygon (the plan's `LookupPlan` location).
 */
import type { LayerPlan, LocationPlan, LookupPlan } from '../../db/schema/publish-request.js';
import type { BoundaryKind, BoundaryLookup } from '../../lib/geocode/boundary-lookup.js';
import type { CellValue } from '../../lib/ingest/index.js';
import type { GeocodeCounts } from './geocoder.js';
import type { Located } from './layer-sources.js';

export type LookupLocation = LookupPlan;

export const UNMATCHED_LOOKUP = 'The value matched no boundary.';

export const asLocationPlan = (location: LookupLocation): LocationPlan => location;

export function lookupOf(plan: Pick<LayerPlan, 'location'>): LookupLocation | undefined {
  return plan.location.type === 'lookup' ? plan.location : undefined;
}

const KINDS: Record<string, BoundaryKind> = {
  country: 'country',
  countries: 'country',
  nation: 'country',
  state: 'region',
  states: 'region',
  region: 'region',
  province: 'region',
  admin1: 'region',
  zip: 'postal',
  zipcode: 'postal',
  postal: 'postal',
  postalcode: 'postal',
  postcode: 'postal',
};

/** The boundary kind a lookupType or lookupFields key names ("country", "State", "ZIP"), if any. */
export const boundaryKindOf = (name: string): BoundaryKind | undefined =>
  KINDS[
    name
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, '')
  ];

export function lookupRows(
  lookup: BoundaryLookup,
  location: LookupLocation,
  rows: readonly CellValue[][],
): { geometries: Located[]; counts: GeocodeCounts; tiedRows: number[] } {
  const values = rows.map((row) => {
    const v = row[location.index];
    return v === null || v === undefined ? undefined : String(v).trim() || undefined;
  });
  // A source country narrows regions and postal codes; it would wrongly exclude every other country.
  const narrow = location.countryCode && location.kind && location.kind !== 'country';
  const matches = lookup.matchMany(values, {
    ...(location.kind ? { kind: location.kind } : {}),
    ...(narrow ? { countryCode: location.countryCode } : {}),
  });
  const counts: GeocodeCounts = { matched: 0, tied: 0, unmatched: 0 };
  const geometries = matches.map((m): Located => {
    if (!m) {
      counts.unmatched++;
      return { reason: UNMATCHED_LOOKUP };
    }
    counts.matched++;
    return m.boundary.polygon;
  });
  // A name either matches a boundary or not: lookups have no ties.
  return { geometries, counts, tiedRows: [] };
}
