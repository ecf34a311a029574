import type { PlaceRecord } from './gazetteer-types.js';
import { nameKey } from './text-normalizer.js';
import { TrigramIndex } from './trigram-index.js';

const BIG_CITY_POPULATION = 1_000_000;

export interface PlaceHit {
  id: number;
  distance: number;
}

/**
 * Populated places held column by column (typed arrays for numbers, interned strings for codes) so
 * 140,000 places cost a few megabytes, with an exact name-key map and a trigram index for misspellings.
 */
export class PlaceTable {
  readonly size: number;
  readonly names: string[];
  readonly countryCodes: string[];
  readonly regionCodes: string[];
  readonly featureCodes: string[];
  readonly lon: Float64Array;
  readonly lat: Float64Array;
  readonly population: Float64Array;
  private readonly idsByKey = new Map<string, number[]>();
  private readonly keys: string[] = [];
  private readonly keyIds: number[][] = [];
  private readonly trigrams: TrigramIndex;

  constructor(places: readonly PlaceRecord[]) {
    this.size = places.length;
    this.names = new Array(this.size);
    this.countryCodes = new Array(this.size);
    this.regionCodes = new Array(this.size);
    this.featureCodes = new Array(this.size);
    this.lon = new Float64Array(this.size);
    this.lat = new Float64Array(this.size);
    this.population = new Float64Array(this.size);
    const interned = new Map<string, string>();
    const intern = (s: string) => {
      const found = interned.get(s);
      if (found !== undefined) return found;
      interned.set(s, s);
      return s;
    };
    places.forEach((place, id) => {
      this.names[id] = place.name;
      this.countryCodes[id] = intern(place.countryCode);
      this.regionCodes[id] = intern(place.regionCode);
      this.featureCodes[id] = intern(place.featureCode ?? 'PPL');
      this.lon[id] = place.lon;
      this.lat[id] = place.lat;
      this.population[id] = place.population;
      for (const name of new Set([place.name, ...(place.altNames ?? [])])) this.addKey(nameKey(name), id);
      // Big cities are often named without their "City" ("New York", "Mexico", "Ho Chi Minh").
      const key = nameKey(place.name);
      if (place.population >= BIG_CITY_POPULATION && key.endsWith(' city')) this.addKey(key.slice(0, -5), id);
    });
    this.trigrams = new TrigramIndex(this.keys);
  }

  private addKey(key: string, id: number): void {
    if (!key) return;
    let ids = this.idsByKey.get(key);
    if (!ids) {
      ids = [];
      this.idsByKey.set(key, ids);
      this.keys.push(key);
      this.keyIds.push(ids);
    }
    if (ids[ids.length - 1] !== id) ids.push(id);
  }

  /**
   * Places whose name is the text exactly (after folding) or, when no exactly named place passes
   * `accept` (e.g. none in the country asked for), within a few edits.
   */
  find(text: string, accept: (id: number) => boolean = () => true): PlaceHit[] {
    const key = nameKey(text);
    const exact = (this.idsByKey.get(key) ?? []).filter(accept);
    if (exact.length > 0) return exact.map((id) => ({ id, distance: 0 }));
    return this.trigrams
      .search(key)
      .flatMap((hit) => this.keyIds[hit.id].filter(accept).map((id) => ({ id, distance: hit.distance })));
  }

  /** Places whose name is exactly this key (no fuzzy step), for parse hypotheses that split words. */
  findExact(text: string): number[] {
    return this.idsByKey.get(nameKey(text)) ?? [];
  }
}
