import { type AdminVocabulary, parseAddress } from './address-parser.js';
import { countryMatches, localityMatches, postalMatches, regionMatches } from './area-matcher.js';
import type { GazetteerIndex } from './gazetteer-index.js';
import type { AddressInput, GeocodeMatch } from './gazetteer-types.js';
import { placeLookups, resolveContext } from './match-context.js';
import { rankMatches } from './match-ranking.js';
import { streetMatches } from './street-matcher.js';

export interface LocatorOptions {
  serviceName?: string;
  /** Records geocodeAddresses takes in one request; more are ignored, as ArcGIS does. */
  maxBatchSize?: number;
  suggestedBatchSize?: number;
  /** Candidates scoring below this are not returned by findAddressCandidates. */
  minCandidateScore?: number;
  /** A batch record whose best candidate scores below this is unmatched. */
  minMatchScore?: number;
  /** Upper bound of maxLocations. */
  maxCandidates?: number;
}

export type LocatorInfo = Required<LocatorOptions> & { countries: string[] };

export interface FindOptions {
  maxLocations?: number;
  /** ISO alpha-2 or alpha-3 code (or name) of the only country to search. */
  countryCode?: string;
}

export interface BatchRecord extends AddressInput {
  objectId: number;
}

export type MatchStatus = 'M' | 'T' | 'U';

export interface BatchResult {
  resultId: number;
  status: MatchStatus;
  match?: GeocodeMatch;
}

export interface Locator {
  readonly info: LocatorInfo;
  readonly index: GazetteerIndex;
  findAddressCandidates(input: AddressInput, options?: FindOptions): GeocodeMatch[];
  geocodeAddresses(
    records: readonly BatchRecord[],
    options?: Pick<FindOptions, 'countryCode'>,
  ): BatchResult[];
}

const DEFAULTS: Required<LocatorOptions> = {
  serviceName: 'Gazetteer',
  maxBatchSize: 1000,
  suggestedBatchSize: 150,
  minCandidateScore: 50,
  minMatchScore: 80,
  maxCandidates: 50,
};

/** Two candidates this far apart (degrees) with equal scores are a real tie. */
const TIE_DISTANCE_DEGREES = 0.01;
/** Two places of one name this far apart (degrees) are different places, not two records of one. */
const TIE_LOCALITY_DEGREES = 0.1;

/**
 * Whether the two best candidates are equally good answers in different places: equal scores, the same
 * kind, apart; and for cities, of comparable size (the second at least half the first's importance),
 * since nobody asking for "Springfield" alone can be told which of several alike they meant, while
 * "Paris" alone means the capital.
 */
function isTie(best: GeocodeMatch, second: GeocodeMatch | undefined): boolean {
  if (!second || second.score !== best.score || second.addrType !== best.addrType) return false;
  const apart = Math.hypot(second.lon - best.lon, second.lat - best.lat);
  if (best.addrType === 'PointAddress' || best.addrType === 'StreetAddress') {
    return apart > TIE_DISTANCE_DEGREES;
  }
  if (best.addrType === 'Locality') {
    return apart > TIE_LOCALITY_DEGREES && second.importance >= best.importance / 2;
  }
  return false;
}

export function createLocator(
  index: GazetteerIndex,
  options: LocatorOptions = {},
  countries: string[] = [],
): Locator {
  const info: LocatorInfo = { ...DEFAULTS, ...options, countries };
  const vocabulary: AdminVocabulary = {
    isCountry: (text) => index.admin.countryNear(text) !== undefined,
    isRegion: (text) => index.admin.regions(text).length > 0,
    isAmbiguousRegion: (text) =>
      index.admin.regions(text).some((hit) => hit.distance > 0) || index.places.findExact(text).length > 0,
  };

  const findAll = (input: AddressInput, countryCode?: string, fuzzy = true): GeocodeMatch[] => {
    const matches: GeocodeMatch[] = [];
    const lookups = placeLookups(index.places, fuzzy);
    for (const parsed of parseAddress(input, vocabulary)) {
      const context = resolveContext(index, parsed, countryCode ?? input.countryCode, lookups);
      if (!context) continue;
      matches.push(
        ...streetMatches(context),
        ...postalMatches(context),
        ...localityMatches(context),
        ...regionMatches(context),
        ...countryMatches(context),
      );
    }
    return rankMatches(matches.filter((m) => m.score >= info.minCandidateScore));
  };

  return {
    info,
    index,
    findAddressCandidates(input, findOptions = {}) {
      const limit = Math.min(findOptions.maxLocations ?? info.maxCandidates, info.maxCandidates);
      return findAll(input, findOptions.countryCode).slice(0, Math.max(0, limit));
    },
    geocodeAddresses(records, batchOptions = {}) {
      return records.slice(0, info.maxBatchSize).map((record) => {
        // Exact place names first: when one scores 100, no misspelling can outrank it or tie with it.
        const exact = findAll(record, batchOptions.countryCode, false);
        const [best, second] = exact[0]?.score === 100 ? exact : findAll(record, batchOptions.countryCode);
        if (!best || best.score < info.minMatchScore) return { resultId: record.objectId, status: 'U' };
        return { resultId: record.objectId, status: isTie(best, second) ? 'T' : 'M', match: best };
      });
    },
  };
}
