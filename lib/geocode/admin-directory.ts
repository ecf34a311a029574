import type { CountryRecord, RegionRecord, SubregionRecord } from './gazetteer-types.js';
import { REGION_ABBREVIATIONS, REGION_NAME_AFFIXES } from './region-abbreviations.js';
import { foldText } from './text-normalizer.js';
import { TrigramIndex } from './trigram-index.js';

const REGION_MEMO_SIZE = 20_000;

export interface RegionHit {
  region: RegionRecord;
  distance: number;
}

const regionNameKey = (name: string): string => foldText(name).replace(REGION_NAME_AFFIXES, '');

/** Words that name the kind of a second-level region, before or after its name ("Cook County", "Landkreis München"). */
const SUBREGION_KINDS =
  '(?:county|district|municipality|municipio|municipal district|comuna|rayon|raion|provincia|province|' +
  'departamento|partido|kabupaten|kota|powiat|okres|gemeente|kommun|landkreis|kreis|stadtkreis|amphoe|' +
  'muang|huyen|quan|shi|ku|gun|ilcesi|shahrestan e|obshtina|okrug|tumani|jaras|pagasts|markaz|parish|borough|city)';
const SUBREGION_AFFIX = new RegExp(`^(?:${SUBREGION_KINDS} (?:of )?)|(?: ${SUBREGION_KINDS})$`);

/** The comparison key of a second-level region's name: folded, the word naming its kind removed. */
export const subregionNameKey = (name: string): string => {
  const folded = foldText(name);
  const stripped = folded.replace(SUBREGION_AFFIX, '');
  return stripped || folded;
};

/** Countries and first-level regions, found by any of their names or codes. */
export class AdminDirectory {
  private readonly countriesByKey = new Map<string, CountryRecord>();
  private readonly countriesByIso2 = new Map<string, CountryRecord>();
  private readonly regionsByKey = new Map<string, RegionRecord[]>();
  private readonly regionsByCode = new Map<string, RegionRecord>();
  private readonly regionKeys: string[] = [];
  private readonly regionKeyOwners: RegionRecord[][] = [];
  private readonly regionTrigrams: TrigramIndex;
  private readonly countryKeys: string[];
  private readonly countryTrigrams: TrigramIndex;
  private readonly subregionsByKey = new Map<string, SubregionRecord[]>();
  private readonly subregionsByCode = new Map<string, SubregionRecord>();

  constructor(
    countries: readonly CountryRecord[],
    regions: readonly RegionRecord[],
    subregions: readonly SubregionRecord[] = [],
  ) {
    for (const country of countries) {
      this.countriesByIso2.set(country.iso2, country);
      for (const name of [country.iso2, country.iso3, country.name, ...country.aliases]) {
        const key = foldText(name);
        if (key && !this.countriesByKey.has(key)) this.countriesByKey.set(key, country);
      }
    }
    for (const input of regions) {
      const nameKey = regionNameKey(input.name);
      const region: RegionRecord = {
        ...input,
        abbr: input.abbr ?? REGION_ABBREVIATIONS[input.countryCode]?.[nameKey],
      };
      this.regionsByCode.set(`${region.countryCode}.${region.code}`, region);
      const keys = new Set([nameKey, foldText(region.name)]);
      if (region.abbr) keys.add(foldText(region.abbr));
      for (const key of keys) this.addRegionKey(key, region);
    }
    this.regionTrigrams = new TrigramIndex(this.regionKeys);
    for (const subregion of subregions) {
      this.subregionsByCode.set(
        `${subregion.countryCode}.${subregion.regionCode}.${subregion.code}`,
        subregion,
      );
      for (const key of new Set([foldText(subregion.name), subregionNameKey(subregion.name)])) {
        const owners = this.subregionsByKey.get(key);
        if (owners) owners.push(subregion);
        else this.subregionsByKey.set(key, [subregion]);
      }
    }
    // Codes (two or three letters) are never corrected for spelling, so only names go in.
    this.countryKeys = [...this.countriesByKey.keys()].filter((key) => key.length >= 5);
    this.countryTrigrams = new TrigramIndex(this.countryKeys);
  }

  private addRegionKey(key: string, region: RegionRecord): void {
    let owners = this.regionsByKey.get(key);
    if (!owners) {
      owners = [];
      this.regionsByKey.set(key, owners);
      this.regionKeys.push(key);
      this.regionKeyOwners.push(owners);
    }
    owners.push(region);
  }

  /** The country a text names exactly (code, English name or alias in another language). */
  country(text: string): CountryRecord | undefined {
    return this.countriesByKey.get(foldText(text));
  }

  /** The country a text names, allowing a slip or two in names of five letters or more. */
  countryNear(text: string): { country: CountryRecord; distance: number } | undefined {
    const key = foldText(text);
    const exact = this.countriesByKey.get(key);
    if (exact) return { country: exact, distance: 0 };
    if (key.length < 5) return undefined;
    const [hit] = this.countryTrigrams.search(key);
    const country = hit && this.countriesByKey.get(this.countryKeys[hit.id]);
    return country ? { country, distance: hit.distance } : undefined;
  }

  countryByIso2(iso2: string): CountryRecord | undefined {
    return this.countriesByIso2.get(iso2.toUpperCase());
  }

  region(countryCode: string, code: string): RegionRecord | undefined {
    return this.regionsByCode.get(`${countryCode}.${code}`);
  }

  /** Answers of `regions`, which the parser and the matchers ask again and again for the same words. */
  private readonly regionMemo = new Map<string, RegionHit[]>();

  /** Regions a text names, exactly or within a few edits, optionally within one country. */
  regions(text: string, countryCode?: string): RegionHit[] {
    const memoKey = `${countryCode ?? ''}|${text}`;
    let hits = this.regionMemo.get(memoKey);
    if (!hits) {
      // Bounded: a long run of distinct inputs starts the memo afresh rather than growing it.
      if (this.regionMemo.size >= REGION_MEMO_SIZE) this.regionMemo.clear();
      hits = this.findRegions(text, countryCode);
      this.regionMemo.set(memoKey, hits);
    }
    return hits;
  }

  private findRegions(text: string, countryCode?: string): RegionHit[] {
    const key = regionNameKey(text);
    if (!key) return [];
    const inCountry = (r: RegionRecord) => !countryCode || r.countryCode === countryCode;
    const exact = (this.regionsByKey.get(key) ?? []).filter(inCountry);
    if (exact.length > 0) return exact.map((region) => ({ region, distance: 0 }));
    // Two-letter abbreviations are never corrected: "IN" is not a misspelt "IL".
    if (key.length <= 3) return [];
    return this.regionTrigrams
      .search(key)
      .flatMap((hit) =>
        this.regionKeyOwners[hit.id].filter(inCountry).map((region) => ({ region, distance: hit.distance })),
      );
  }

  /** Second-level regions a text names exactly ("Cook County", "Cook", "Landkreis München"), optionally in one country. */
  subregions(text: string, countryCode?: string): SubregionRecord[] {
    const found =
      this.subregionsByKey.get(subregionNameKey(text)) ?? this.subregionsByKey.get(foldText(text));
    return (found ?? []).filter((s) => !countryCode || s.countryCode === countryCode);
  }

  subregion(countryCode: string, regionCode: string, code: string): SubregionRecord | undefined {
    return this.subregionsByCode.get(`${countryCode}.${regionCode}.${code}`);
  }
}
