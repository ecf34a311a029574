import type { PlaceRecord } from './gazetteer-types.js';
import { nameKey } from './text-normalizer.js';
import { TrigramIndex } from './trigram-index.js';

const BIG_CITY_POPULATION = 1_000_000;

export interface PlaceHit {
  id: number;
  distance: number;
  /** Found by one of its alternate names (another language, a historic name), not its own. */
  alternate: boolean;
}

/**
 * Populated places held column by column (typed arrays for numbers, interned strings for codes), with an
 * exact map from every name key (own and alternate names) to the places it names, and a trigram index
 * for misspellings over own names only: alternate names (a million of them, in every script) are
 * matched exactly, which keeps the fuzzy step small and stops a misspelt name from drifting into an
 * obscure transliteration.
 * Entries of a key are `id * 2 + (alternate ? 1 : 0)`.
 */
export class PlaceTable {
  readonly size: number;
  readonly names: string[];
  readonly countryCodes: string[];
  readonly regionCodes: string[];
  readonly featureCodes: string[];
  readonly subregionCodes: string[];
  readonly lon: Float64Array;
  readonly lat: Float64Array;
  readonly population: Float64Array;
  private readonly entriesByKey = new Map<string, number[]>();
  /** Keys that are some place's own name, and their entries, for the fuzzy step. */
  private readonly ownKeys: string[] = [];
  private readonly ownKeyEntries: number[][] = [];
  private readonly ownKeySet = new Set<string>();
  private readonly trigrams: TrigramIndex;

  constructor(places: readonly PlaceRecord[]) {
    this.size = places.length;
    this.names = new Array(this.size);
    this.countryCodes = new Array(this.size);
    this.regionCodes = new Array(this.size);
    this.featureCodes = new Array(this.size);
    this.subregionCodes = new Array(this.size);
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
      this.subregionCodes[id] = intern(place.subregionCode ?? '');
      this.lon[id] = place.lon;
      this.lat[id] = place.lat;
      this.population[id] = place.population;
      const key = nameKey(place.name);
      this.addKey(key, id, false);
      // Big cities are often named without their "City" ("New York", "Mexico", "Ho Chi Minh").
      if (place.population >= BIG_CITY_POPULATION && key.endsWith(' city')) {
        this.addKey(key.slice(0, -5), id, false);
      }
      for (const name of place.altNames ?? []) this.addKey(nameKey(name), id, true);
    });
    this.trigrams = new TrigramIndex(this.ownKeys);
    this.ownKeySet.clear();
  }

  private addKey(key: string, id: number, alternate: boolean): void {
    if (!key) return;
    let entries = this.entriesByKey.get(key);
    if (!entries) {
      entries = [];
      this.entriesByKey.set(key, entries);
    }
    // A place's keys are added one after another, own name first: one entry per place and key.
    if (entries.length > 0 && entries[entries.length - 1] >>> 1 === id) return;
    entries.push(id * 2 + (alternate ? 1 : 0));
    if (!alternate && !this.ownKeySet.has(key)) {
      this.ownKeySet.add(key);
      this.ownKeys.push(key);
      this.ownKeyEntries.push(entries);
    }
  }

  /**
   * Places whose name is the text exactly (after folding) or, when no exactly named place passes
   * `accept` (e.g. none in the country asked for), within a few edits.
   */
  find(text: string, accept: (id: number) => boolean = () => true): PlaceHit[] {
    const key = nameKey(text);
    const hitsOf = (entries: readonly number[], distance: number): PlaceHit[] => {
      const hits: PlaceHit[] = [];
      for (const entry of entries) {
        const id = entry >>> 1;
        if (accept(id)) hits.push({ id, distance, alternate: (entry & 1) === 1 });
      }
      return hits;
    };
    const exact = hitsOf(this.entriesByKey.get(key) ?? [], 0);
    if (exact.length > 0) return exact;
    return this.trigrams.search(key).flatMap((hit) => hitsOf(this.ownKeyEntries[hit.id], hit.distance));
  }

  /** Places named exactly this (own or alternate name; no fuzzy step), for parse hypotheses that split words. */
  findExact(text: string): number[] {
    return (this.entriesByKey.get(nameKey(text)) ?? []).map((entry) => entry >>> 1);
  }
}
