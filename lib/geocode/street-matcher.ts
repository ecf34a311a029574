import type { AddrType, GeocodeMatch } from './gazetteer-types.js';
import { type MatchContext, regionTextPenalty, spellingPenalty } from './match-context.js';
import { areaNames, buildMatch } from './match-labels.js';
import { foldText, nameKey } from './text-normalizer.js';

/** Points lost when the house number is estimated between neighbours rather than found. */
const INTERPOLATED_PENALTY = 3;
/** Points lost when only the street is found, not the house number. */
const NUMBER_NOT_FOUND_PENALTY = 10;
const MAX_STREETS = 10;

const houseNumber = (text: string): number => Number.parseInt(text, 10);

/** Street-level matches from loaded address points; empty when the reading names no street. */
export function streetMatches(context: MatchContext): GeocodeMatch[] {
  const { index, parsed } = context;
  const { points } = index;
  if (!parsed.street || points.size === 0) return [];
  const cityOptions: [string | undefined, number][] = parsed.city
    ? cityReadings(context, parsed.city)
    : [[undefined, 0]];
  const matches: GeocodeMatch[] = [];
  for (const [city, cityPenalty] of cityOptions) {
    const streets = points.findStreets(parsed.street, city === undefined ? undefined : [city], parsed.postal);
    for (const street of streets.slice(0, MAX_STREETS)) {
      const ids = street.ids.filter(
        (id) =>
          !context.countryCode || !points.countryCodes[id] || points.countryCodes[id] === context.countryCode,
      );
      if (ids.length === 0) continue;
      const penalty =
        context.basePenalty +
        cityPenalty +
        spellingPenalty(street.distance, street.streetKey.length) +
        regionTextPenalty(context, points.regions[ids[0]]);
      const names = areaNames(
        index,
        points.countryCodes[ids[0]],
        points.regions[ids[0]],
        points.cities[ids[0]],
      );
      for (const located of locateNumber(context, ids)) {
        const number = located.addrType === 'StreetName' ? undefined : parsed.number;
        matches.push(
          buildMatch(located.addrType, 100 - penalty - located.penalty, located.lon, located.lat, names, {
            number,
            street: points.streets[ids[0]],
            postal: points.postcodes[located.id] || parsed.postal,
          }),
        );
      }
    }
  }
  return matches;
}

/** The typed city and, when it is misspelt, the nearby spellings the gazetteer knows. */
function cityReadings(context: MatchContext, city: string): [string, number][] {
  const { places } = context.index;
  const readings = new Map<string, number>([[city, 0]]);
  const length = nameKey(city).length;
  for (const hit of context.lookups.find(city).slice(0, 20)) {
    const name = places.names[hit.id];
    if (!readings.has(name)) readings.set(name, spellingPenalty(hit.distance, length));
  }
  return [...readings];
}

interface Located {
  addrType: AddrType;
  lon: number;
  lat: number;
  id: number;
  penalty: number;
}

/**
 * Where the house number is: every point carrying it (two far apart make a tie), else a point
 * interpolated between its neighbours on the same side, else the street's middle.
 */
function locateNumber(context: MatchContext, ids: number[]): Located[] {
  const { points } = context.index;
  const typed = context.parsed.number ? foldText(context.parsed.number).replace(/ /g, '') : undefined;
  if (typed) {
    const exact = ids.filter((id) => points.numbers[id] === typed);
    if (exact.length > 0) {
      return exact.map((id) => ({
        addrType: 'PointAddress',
        lon: points.lon[id],
        lat: points.lat[id],
        id,
        penalty: 0,
      }));
    }
    const interpolated = interpolateNumber(context, ids, houseNumber(typed));
    if (interpolated) return [interpolated];
  }
  const middle = [...ids].sort((a, b) => points.lon[a] - points.lon[b])[Math.floor(ids.length / 2)];
  const penalty = typed ? NUMBER_NOT_FOUND_PENALTY : 0;
  return [{ addrType: 'StreetName', lon: points.lon[middle], lat: points.lat[middle], id: middle, penalty }];
}

function interpolateNumber(context: MatchContext, ids: number[], wanted: number): Located | undefined {
  if (!Number.isFinite(wanted)) return undefined;
  const { points } = context.index;
  const sameSide = ids.filter((id) => houseNumber(points.numbers[id]) % 2 === wanted % 2);
  const pool = sameSide.length >= 2 ? sameSide : ids;
  let below: number | undefined;
  let above: number | undefined;
  for (const id of pool) {
    const n = houseNumber(points.numbers[id]);
    if (n < wanted && (below === undefined || n > houseNumber(points.numbers[below]))) below = id;
    if (n > wanted && (above === undefined || n < houseNumber(points.numbers[above]))) above = id;
  }
  if (below === undefined || above === undefined) return undefined;
  const lo = houseNumber(points.numbers[below]);
  const t = (wanted - lo) / (houseNumber(points.numbers[above]) - lo);
  const lon = points.lon[below] + t * (points.lon[above] - points.lon[below]);
  const lat = points.lat[below] + t * (points.lat[above] - points.lat[below]);
  return { addrType: 'StreetAddress', lon, lat, id: below, penalty: INTERPOLATED_PENALTY };
}
