import type { GeocodeMatch } from './gazetteer-types.js';
import {
  areaPenalty,
  cityAgreementPenalty,
  type MatchContext,
  regionPenalty,
  STREET_NOT_USED_PENALTY,
  spellingPenalty,
  UNKNOWN_COMPONENT_PENALTY,
} from './match-context.js';
import { areaNames, buildMatch, placeMatch, postalMatch } from './match-labels.js';
import { nameKey } from './text-normalizer.js';

/** Of many places sharing a name, only the most populous are worth scoring. */
const MAX_PLACES_PER_NAME = 50;
/** A postal code whose point lies farther than this (degrees) from a city does not support it. */
const POSTAL_NEAR_CITY_DEGREES = 0.5;

export function postalMatches(context: MatchContext): GeocodeMatch[] {
  const { index, parsed } = context;
  if (!parsed.postal) return [];
  return index.postals.find(parsed.postal, context.countryCode).map((postal) => {
    const regionCode =
      index.admin.regions(postal.region, postal.countryCode)[0]?.region.code ?? postal.region;
    const penalty =
      context.basePenalty +
      (parsed.street ? STREET_NOT_USED_PENALTY : 0) +
      cityAgreementPenalty(context, postal) +
      regionPenalty(context, postal.countryCode, regionCode);
    return postalMatch(index, postal, 100 - penalty);
  });
}

/** Cities named like the reading's city, within its country and preferably its region (a street given lowers them). */
export function localityMatches(context: MatchContext): GeocodeMatch[] {
  const { index, parsed } = context;
  if (!parsed.city) return [];
  const { places } = index;
  const cityLength = nameKey(parsed.city).length;
  const postals = parsed.postal ? index.postals.find(parsed.postal, context.countryCode) : [];
  const hits = [...context.lookups.find(parsed.city, context.countryCode)]
    .sort((a, b) => a.distance - b.distance || places.population[b.id] - places.population[a.id])
    .slice(0, MAX_PLACES_PER_NAME);
  return hits.map((hit) => {
    const id = hit.id;
    let penalty =
      context.basePenalty +
      spellingPenalty(hit.distance, cityLength) +
      regionPenalty(context, places.countryCodes[id], places.regionCodes[id]) +
      areaPenalty(context, id);
    if (parsed.street) penalty += STREET_NOT_USED_PENALTY;
    if (postals.length > 0) {
      const near = postals.some(
        (p) =>
          Math.abs(p.lon - places.lon[id]) < POSTAL_NEAR_CITY_DEGREES &&
          Math.abs(p.lat - places.lat[id]) < POSTAL_NEAR_CITY_DEGREES,
      );
      // A postal code that agrees with the city says more about where: the postal candidate goes first.
      penalty += near ? 5 : 10;
    } else if (parsed.postal) penalty += 5;
    return placeMatch(index, id, 100 - penalty, hit.alternate);
  });
}

/** A region named on its own ("Illinois", "Bavaria"), or a city slot that holds a region's name. */
export function regionMatches(context: MatchContext): GeocodeMatch[] {
  const { index, parsed } = context;
  if (parsed.street || parsed.postal || parsed.area) return [];
  const text = parsed.city && !parsed.region ? parsed.city : !parsed.city ? parsed.region : undefined;
  if (!text) return [];
  const penaltyOfSlot = parsed.city ? 0 : context.basePenalty;
  return index.admin.regions(text, context.countryCode).flatMap((hit) => {
    const seat = index.seatOf(`${hit.region.countryCode}.${hit.region.code}`);
    if (seat === undefined) return [];
    const names = areaNames(index, hit.region.countryCode, hit.region.code);
    const score = 100 - penaltyOfSlot - spellingPenalty(hit.distance, hit.region.name.length);
    // Half its seat's population: "Zurich" finds the city before the canton, "Illinois" the state.
    const population = index.places.population[seat] / 2;
    return [
      buildMatch('Region', score, index.places.lon[seat], index.places.lat[seat], names, { population }),
    ];
  });
}

/** A country named on its own ("France", "DEU"), in the city slot or as the only component. */
export function countryMatches(context: MatchContext): GeocodeMatch[] {
  const { index, parsed } = context;
  if (parsed.street || parsed.postal || parsed.region || parsed.area) return [];
  const text = parsed.city ?? parsed.country;
  if (!text) return [];
  const near = index.admin.countryNear(text);
  if (!near || (context.countryCode && context.countryCode !== near.country.iso2 && parsed.city)) return [];
  const seat = index.seatOf(near.country.iso2);
  if (seat === undefined) return [];
  const names = areaNames(index, near.country.iso2, '');
  const penalty =
    spellingPenalty(near.distance, text.length) +
    (parsed.city && parsed.country ? UNKNOWN_COMPONENT_PENALTY : 0);
  return [buildMatch('Country', 100 - penalty, index.places.lon[seat], index.places.lat[seat], names)];
}
