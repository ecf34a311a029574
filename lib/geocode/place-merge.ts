import type { PlaceRecord } from './gazetteer-types.js';
import { nameKey } from './text-normalizer.js';

/** Two records of one name in one country closer than this (degrees) are the same place. */
const SAME_PLACE_DEGREES = 0.1;

/**
 * Places of `base` followed by the places of `extra` that are not already in it. GeoNames extracts of
 * different thresholds overlap without sharing ids, so a place is the same when its country and folded
 * name agree and it lies within 0.1° (about 10 km). A matched place takes what it lacked from the other
 * record (its second-level region code). `base` is not modified.
 */
export function mergePlaces(base: readonly PlaceRecord[], extra: readonly PlaceRecord[]): PlaceRecord[] {
  const merged = [...base];
  const byKey = new Map<string, number[]>();
  const remember = (id: number) => {
    const key = `${merged[id].countryCode}|${nameKey(merged[id].name)}`;
    const ids = byKey.get(key);
    if (ids) ids.push(id);
    else byKey.set(key, [id]);
  };
  for (let id = 0; id < merged.length; id++) remember(id);
  for (const place of extra) {
    const ids = byKey.get(`${place.countryCode}|${nameKey(place.name)}`) ?? [];
    const same = ids.find(
      (id) =>
        Math.abs(merged[id].lat - place.lat) < SAME_PLACE_DEGREES &&
        Math.abs(merged[id].lon - place.lon) < SAME_PLACE_DEGREES,
    );
    if (same === undefined) {
      merged.push(place);
      remember(merged.length - 1);
    } else if (!merged[same].subregionCode && place.subregionCode) {
      merged[same] = { ...merged[same], subregionCode: place.subregionCode };
    }
  }
  return merged;
}
