import type { PlaceRecord } from './gazetteer-types.js';
import { nameKey } from './text-normalizer.js';
import { TrigramIndex } from './trigram-index.js';

const BIG_CITY_POPULATION = 1_000_000;

interface FuzzyScope {
  trigrams: TrigramIndex;
  /** The keys `trigrams` was built from, by position. */
  keys: readonly string[];
}

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
 * An entry is `id * 2 + (alternate ? 1 : 0)`.
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
  /**
   * What each key names: one entry itself (≥ 0; most keys name one place), or `-(i + 1)` for
   * `lists[i]` when it names several. A million small arrays would cost tens of megabytes more.
   */
  private readonly refByKey = new Map<string, number>();
  private readonly lists: number[][] = [];
  /** Keys that are some place's own name, and their entries, for the fuzzy step. */
  private readonly ownKeys: string[] = [];
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
    const entry = id * 2 + (alternate ? 1 : 0);
    const ref = this.refByKey.get(key);
    // A place's keys are added one after another, own name first: one entry per place and key.
    if (ref === undefined) this.refByKey.set(key, entry);
    else if (ref >= 0) {
      if (ref >>> 1 === id) return;
      this.lists.push([ref, entry]);
      this.refByKey.set(key, -this.lists.length);
    } else {
      const list = this.lists[-ref - 1];
      if (list[list.length - 1] >>> 1 === id) return;
      list.push(entry);
    }
    if (!alternate && !this.ownKeySet.has(key)) {
      this.ownKeySet.add(key);
      this.ownKeys.push(key);
    }
  }

  /**
   * Places whose name is the text exactly (after folding) or, when no exactly named place passes
   * `accept` (e.g. none in the country asked for), within a few edits (unless `fuzzy` is false).
   */
  find(text: string, accept: (id: number) => boolean = () => true, fuzzy = true): PlaceHit[] {
    const key = nameKey(text);
    const exact = this.hitsOf(this.exactEntries(key), 0, accept);
    if (exact.length > 0 || !fuzzy) return exact;
    return this.fuzzy(key).flatMap((hit) => this.hitsOf(hit.entries, hit.distance, accept));
  }

  /** Entries (`id * 2 + alternate`) of the places a name key names exactly. */
  exactEntries(key: string): readonly number[] {
    const ref = this.refByKey.get(key);
    return ref === undefined ? [] : ref >= 0 ? [ref] : this.lists[-ref - 1];
  }

  /**
   * Own-name keys within a few edits of a key, with their entries for `hitsOf`: among every place's own
   * names, or only those of one country's places when `countryCode` is given (each country gets its own
   * trigram index on first use, a twentieth of the whole on average, so a search within a country scans
   * that much less).
   */
  fuzzy(key: string, countryCode?: string): { entries: readonly number[]; distance: number }[] {
    const scope = countryCode ? this.countryScope(countryCode) : this.everywhere;
    return scope.trigrams
      .search(key)
      .map((hit) => ({ entries: this.exactEntries(scope.keys[hit.id]), distance: hit.distance }));
  }

  private get everywhere(): FuzzyScope {
    return { trigrams: this.trigrams, keys: this.ownKeys };
  }

  private readonly countryScopes = new Map<string, FuzzyScope>();

  /** Own-name key ids by the countries of the places they name, grouped in one pass on first use. */
  private keysByCountry?: Map<string, number[]>;

  private countryScope(countryCode: string): FuzzyScope {
    let scope = this.countryScopes.get(countryCode);
    if (!scope) {
      if (!this.keysByCountry) {
        const groups = new Map<string, number[]>();
        this.ownKeys.forEach((key, keyId) => {
          let last = '';
          for (const entry of this.exactEntries(key)) {
            if ((entry & 1) === 1) continue;
            const country = this.countryCodes[entry >>> 1];
            if (country === last) continue;
            last = country;
            const ids = groups.get(country);
            if (!ids) groups.set(country, [keyId]);
            else if (ids[ids.length - 1] !== keyId) ids.push(keyId);
          }
        });
        this.keysByCountry = groups;
      }
      const keys = (this.keysByCountry.get(countryCode) ?? []).map((keyId) => this.ownKeys[keyId]);
      scope = { trigrams: new TrigramIndex(keys), keys };
      this.countryScopes.set(countryCode, scope);
    }
    return scope;
  }

  /** The places of some entries that `accept` takes; a misspelling is corrected towards own names only. */
  hitsOf(entries: readonly number[], distance: number, accept: (id: number) => boolean): PlaceHit[] {
    const hits: PlaceHit[] = [];
    for (const entry of entries) {
      const id = entry >>> 1;
      const alternate = (entry & 1) === 1;
      // "Frawklin" is a misspelt Franklin, not El Paso, whose old name Franklin was.
      if ((distance === 0 || !alternate) && accept(id)) hits.push({ id, distance, alternate });
    }
    return hits;
  }

  /** Places named exactly this (own or alternate name; no fuzzy step), for parse hypotheses that split words. */
  findExact(text: string): number[] {
    return this.exactEntries(nameKey(text)).map((entry) => entry >>> 1);
  }
}
