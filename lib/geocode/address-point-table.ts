import { allowedEdits, boundedEditDistance } from './edit-distance.js';
import type { AddressPointRecord } from './gazetteer-types.js';
import { addTo, pushTo } from './multimap.js';
import { foldText, nameKey, postalKey } from './text-normalizer.js';

export interface StreetMatch {
  streetKey: string;
  distance: number;
  /** Points on that street (within the city when one was given), in load order. */
  ids: number[];
}

/**
 * Address points (OpenAddresses-style) column by column, indexed by street within city. Administrators
 * add batches at any time; nothing is rebuilt, the maps just grow.
 */
export class AddressPointTable {
  readonly lon: number[] = [];
  readonly lat: number[] = [];
  readonly numbers: string[] = [];
  readonly streets: string[] = [];
  readonly units: string[] = [];
  readonly cities: string[] = [];
  readonly regions: string[] = [];
  readonly postcodes: string[] = [];
  readonly countryCodes: string[] = [];
  private readonly byStreet = new Map<string, number[]>();
  private readonly streetsByCity = new Map<string, Set<string>>();
  private readonly citiesByStreet = new Map<string, Set<string>>();

  get size(): number {
    return this.lon.length;
  }

  add(points: readonly AddressPointRecord[]): void {
    for (const p of points) {
      const streetKey = nameKey(p.street);
      if (!streetKey || !Number.isFinite(p.lon) || !Number.isFinite(p.lat)) continue;
      const id = this.lon.length;
      this.lon.push(p.lon);
      this.lat.push(p.lat);
      this.numbers.push(foldText(p.number).replace(/ /g, ''));
      this.streets.push(p.street);
      this.units.push(p.unit ?? '');
      this.cities.push(p.city || p.district || '');
      this.regions.push(p.region ?? '');
      this.postcodes.push(p.postcode ?? '');
      this.countryCodes.push(p.countryCode ?? '');
      const cityKey = nameKey(p.city || p.district || '');
      pushTo(this.byStreet, `${cityKey}|${streetKey}`, id);
      addTo(this.streetsByCity, cityKey, streetKey);
      addTo(this.citiesByStreet, streetKey, cityKey);
      if (p.district && p.city) this.addAlias(nameKey(p.district), streetKey, id);
    }
  }

  /** A district (borough, neighbourhood) also finds the points filed under its city. */
  private addAlias(districtKey: string, streetKey: string, id: number): void {
    pushTo(this.byStreet, `${districtKey}|${streetKey}`, id);
    addTo(this.streetsByCity, districtKey, streetKey);
    addTo(this.citiesByStreet, streetKey, districtKey);
  }

  /** Streets named like the text in the given cities (all cities when none), nearest spelling first. */
  findStreets(street: string, cities: readonly string[] | undefined, postal?: string): StreetMatch[] {
    const streetKey = nameKey(street);
    if (!streetKey) return [];
    // Without a city, a street spelt exactly as loaded is found through its own cities; only a
    // misspelt one costs a scan of every city's streets.
    const cityKeys = cities
      ? cities.map(nameKey)
      : [...(this.citiesByStreet.get(streetKey) ?? this.streetsByCity.keys())];
    const maxEdits = allowedEdits(streetKey.length);
    const matches: StreetMatch[] = [];
    for (const cityKey of new Set(cityKeys)) {
      const streets = this.streetsByCity.get(cityKey);
      if (!streets) continue;
      // A street spelt exactly as loaded needs no scan for near spellings, which would score lower.
      const candidates = streets.has(streetKey) ? [streetKey] : streets;
      for (const candidate of candidates) {
        const distance = boundedEditDistance(streetKey, candidate, maxEdits);
        if (distance > maxEdits) continue;
        let ids = this.byStreet.get(`${cityKey}|${candidate}`) ?? [];
        if (postal) {
          const inPostal = ids.filter((id) => postalKey(this.postcodes[id]) === postalKey(postal));
          if (inPostal.length > 0) ids = inPostal;
        }
        matches.push({ streetKey: candidate, distance, ids });
      }
    }
    return matches.sort((a, b) => a.distance - b.distance);
  }
}
