import type { EsriPolygon } from '../geometry/types.js';
import { spellingPenalty } from './match-context.js';
import { pushTo } from './multimap.js';
import { foldText } from './text-normalizer.js';
import { TrigramIndex } from './trigram-index.js';

export type BoundaryKind = 'country' | 'region' | 'postal';

/** A named area with its boundary, for publishing a table of names or codes as polygons. */
export interface BoundaryRecord {
  kind: BoundaryKind;
  name: string;
  /** Codes that name it exactly and are never corrected for spelling (ISO codes, postal codes). */
  codes: string[];
  /** Other names (other languages, official forms); these are matched with spelling tolerance. */
  aliases: string[];
  /** ISO alpha-2 of the country a region or postal area lies in. */
  countryCode?: string;
  /** WGS84 rings, Esri orientation (outer rings clockwise). */
  polygon: EsriPolygon;
}

export interface BoundaryMatch {
  boundary: BoundaryRecord;
  score: number;
}

export interface BoundaryQuery {
  kind?: BoundaryKind;
  countryCode?: string;
}

/** Values such as "France", "FRA", "Bavière" or "IL" matched to their boundary polygons. */
export class BoundaryLookup {
  private readonly byCode = new Map<string, BoundaryRecord[]>();
  private readonly byName = new Map<string, BoundaryRecord[]>();
  private readonly nameKeys: string[] = [];
  private readonly trigrams: TrigramIndex;

  constructor(boundaries: readonly BoundaryRecord[]) {
    for (const boundary of boundaries) {
      for (const code of boundary.codes) pushTo(this.byCode, foldText(code), boundary);
      for (const name of new Set([boundary.name, ...boundary.aliases].map(foldText))) {
        if (!name) continue;
        if (!this.byName.has(name)) this.nameKeys.push(name);
        pushTo(this.byName, name, boundary);
      }
    }
    this.trigrams = new TrigramIndex(this.nameKeys);
  }

  /** Best boundary for a value, or undefined when none is near enough to trust. */
  match(value: unknown, query: BoundaryQuery = {}): BoundaryMatch | undefined {
    if (value === null || value === undefined) return undefined;
    const key = foldText(String(value));
    if (!key) return undefined;
    const fits = (b: BoundaryRecord) =>
      (!query.kind || b.kind === query.kind) &&
      (!query.countryCode || !b.countryCode || b.countryCode === query.countryCode);
    // Countries before regions for the same exact key: "Georgia" alone means the country.
    const exact = [...(this.byCode.get(key) ?? []), ...(this.byName.get(key) ?? [])].filter(fits);
    if (exact.length > 0) return { boundary: preferCountry(exact), score: 100 };
    for (const hit of this.trigrams.search(key)) {
      const found = (this.byName.get(this.nameKeys[hit.id]) ?? []).filter(fits);
      if (found.length > 0)
        return { boundary: preferCountry(found), score: 100 - spellingPenalty(hit.distance, key.length) };
    }
    return undefined;
  }

  /** One match per value, for a whole column; repeated values (tables repeat them a lot) are matched once. */
  matchMany(values: readonly unknown[], query: BoundaryQuery = {}): (BoundaryMatch | undefined)[] {
    const memo = new Map<string, BoundaryMatch | undefined>();
    return values.map((value) => {
      const key = value === null || value === undefined ? '' : String(value);
      if (!memo.has(key)) memo.set(key, this.match(value, query));
      return memo.get(key);
    });
  }
}

const preferCountry = (list: BoundaryRecord[]): BoundaryRecord =>
  list.find((b) => b.kind === 'country') ?? list[0];
