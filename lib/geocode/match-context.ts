import type { ParsedAddress } from './address-parser.js';
import type { RegionHit } from './admin-directory.js';
import { allowedEdits, boundedEditDistance } from './edit-distance.js';
import type { GazetteerIndex } from './gazetteer-index.js';
import type { SubregionRecord } from './gazetteer-types.js';
import type { PlaceHit, PlaceTable } from './place-table.js';
import { nameKey } from './text-normalizer.js';

/** Score points lost for a name typed with `distance` edits: one slip in a 7-letter name costs 8. */
export const spellingPenalty = (distance: number, length: number): number =>
  distance === 0 ? 0 : Math.ceil((50 * distance) / Math.max(length, 1));

/** Points lost when a component the user gave could not be found at all. */
export const UNKNOWN_COMPONENT_PENALTY = 15;
/** Points lost by a postal or city match for an input that named a street: the street went unused. */
export const STREET_NOT_USED_PENALTY = 20;
/** Points lost when a place is found but outside the region the user named. */
export const WRONG_REGION_PENALTY = 25;

/**
 * Place lookups of one address, shared by its readings (most readings name the same city), and whether
 * misspellings are looked for at all: a batch first tries exact names only, since a misspelt name never
 * scores 100 and cannot displace an exact match that does.
 */
export interface PlaceLookups {
  readonly fuzzy: boolean;
  find(text: string, countryCode?: string): PlaceHit[];
}

export function placeLookups(places: PlaceTable, fuzzy = true): PlaceLookups {
  const exactByKey = new Map<string, readonly number[]>();
  const fuzzyByKey = new Map<string, { entries: readonly number[]; distance: number }[]>();
  return {
    fuzzy,
    find(text, countryCode) {
      const key = nameKey(text);
      const accept = (id: number) => !countryCode || places.countryCodes[id] === countryCode;
      let entries = exactByKey.get(key);
      if (!entries) {
        entries = places.exactEntries(key);
        exactByKey.set(key, entries);
      }
      const exact = places.hitsOf(entries, 0, accept);
      if (exact.length > 0 || !fuzzy) return exact;
      const fuzzyKey = `${countryCode ?? ''}|${key}`;
      let near = fuzzyByKey.get(fuzzyKey);
      if (!near) {
        near = places.fuzzy(key, countryCode);
        fuzzyByKey.set(fuzzyKey, near);
      }
      return near.flatMap((hit) => places.hitsOf(hit.entries, hit.distance, accept));
    },
  };
}

/** The country and region a reading asks for, resolved once for all its components. */
export interface MatchContext {
  index: GazetteerIndex;
  parsed: ParsedAddress;
  /** ISO alpha-2 every match must lie in, when known. */
  countryCode?: string;
  /** Penalty shared by every match (a country or region given but not recognised). */
  basePenalty: number;
  regionHits?: RegionHit[];
  lookups: PlaceLookups;
  /** What the reading's `area` names, looked up on first use. */
  areaHits?: AreaHits;
}

interface AreaHits {
  places: number[];
  regions: RegionHit[];
  subregions: SubregionRecord[];
}

/** Resolves the reading's country and region; undefined when the reading contradicts the country filter. */
export function resolveContext(
  index: GazetteerIndex,
  parsed: ParsedAddress,
  filterCountry?: string,
  lookups: PlaceLookups = placeLookups(index.places),
): MatchContext | undefined {
  let countryCode = filterCountry ? index.admin.country(filterCountry)?.iso2 : undefined;
  let basePenalty = 0;
  if (parsed.country) {
    const near = index.admin.countryNear(parsed.country);
    if (!near) basePenalty += UNKNOWN_COMPONENT_PENALTY;
    else if (countryCode && near.country.iso2 !== countryCode) return undefined;
    else {
      countryCode = near.country.iso2;
      basePenalty += spellingPenalty(near.distance, parsed.country.length);
    }
  }
  let regionHits: RegionHit[] | undefined;
  if (parsed.region) {
    regionHits = index.admin.regions(parsed.region, countryCode);
    if (regionHits.length === 0) {
      basePenalty += UNKNOWN_COMPONENT_PENALTY;
      regionHits = undefined;
    }
  }
  return { index, parsed, countryCode, basePenalty, regionHits, lookups };
}

/** Penalty for a place in (countryCode, regionCode) against the region the user named. */
export function regionPenalty(context: MatchContext, countryCode: string, regionCode: string): number {
  if (!context.regionHits) return 0;
  let best = Number.POSITIVE_INFINITY;
  for (const hit of context.regionHits) {
    if (hit.region.countryCode === countryCode && hit.region.code === regionCode) {
      best = Math.min(best, spellingPenalty(hit.distance, hit.region.name.length));
    }
  }
  return Number.isFinite(best) ? best : WRONG_REGION_PENALTY;
}

/** A place within this many degrees (about 30 km) of a place named as the area lies in that area. */
const AREA_NEAR_DEGREES = 0.3;

/**
 * Penalty for place `id` against the reading's area ("Epsom, Auckland"): none when the place lies near a
 * place of that name, or in a first- or second-level region of that name; WRONG_REGION_PENALTY when the
 * area exists elsewhere; UNKNOWN_COMPONENT_PENALTY when nothing is called that.
 */
export function areaPenalty(context: MatchContext, id: number): number {
  const area = context.parsed.area;
  if (!area) return 0;
  const { places, admin } = context.index;
  context.areaHits ??= {
    places: places.findExact(area),
    regions: admin.regions(area, context.countryCode).filter((hit) => hit.distance === 0),
    subregions: admin.subregions(area, context.countryCode),
  };
  const hits = context.areaHits;
  const country = places.countryCodes[id];
  const region = places.regionCodes[id];
  const subregion = places.subregionCodes[id];
  const near = hits.places.some(
    (other) =>
      other !== id &&
      places.countryCodes[other] === country &&
      Math.abs(places.lat[other] - places.lat[id]) < AREA_NEAR_DEGREES &&
      Math.abs(places.lon[other] - places.lon[id]) < AREA_NEAR_DEGREES,
  );
  if (near) return 0;
  if (hits.regions.some((hit) => hit.region.countryCode === country && hit.region.code === region)) return 0;
  const inSubregion = hits.subregions.some(
    (s) => s.countryCode === country && s.regionCode === region && s.code === subregion,
  );
  if (inSubregion) return 0;
  const known = hits.places.length > 0 || hits.regions.length > 0 || hits.subregions.length > 0;
  return known ? WRONG_REGION_PENALTY : UNKNOWN_COMPONENT_PENALTY;
}

/** Penalty for a region given as free text (address points carry region names or abbreviations). */
export function regionTextPenalty(context: MatchContext, regionText: string): number {
  if (!context.regionHits || !regionText) return 0;
  const key = nameKey(regionText);
  const named = context.regionHits.some(
    (hit) =>
      nameKey(hit.region.name) === key ||
      (hit.region.abbr && nameKey(hit.region.abbr) === key) ||
      nameKey(hit.region.code) === key,
  );
  return named ? 0 : WRONG_REGION_PENALTY;
}

/** Points lost by a postal match whose city is not the one typed and lies nowhere near it. */
export const POSTAL_CITY_CONFLICT_PENALTY = 20;
/** Degrees within which a postal point and a place of the typed name are taken to agree. */
const NEAR_DEGREES = 0.5;

/**
 * Penalty when a postal record's city is not the city the user typed. ZIP codes often carry another
 * name (Allston for a Boston ZIP), so a typed city that exists near the postal point costs little;
 * one that is far away ("10115 Berlin" against New York's 10115) costs a lot.
 */
export function cityAgreementPenalty(
  context: MatchContext,
  postal: { city: string; lon: number; lat: number },
): number {
  const typedCity = context.parsed.city;
  if (!typedCity) return 0;
  const typed = nameKey(typedCity);
  const edits = allowedEdits(typed.length);
  if (boundedEditDistance(typed, nameKey(postal.city), edits) <= edits) return 0;
  const { places } = context.index;
  const near = places
    .findExact(typedCity)
    .some(
      (id) =>
        Math.abs(places.lon[id] - postal.lon) < NEAR_DEGREES &&
        Math.abs(places.lat[id] - postal.lat) < NEAR_DEGREES,
    );
  return near ? 5 : POSTAL_CITY_CONFLICT_PENALTY;
}
