import type { AddrType, GeocodeMatch } from './gazetteer-types.js';

/** Street and postal matches outrank areas of the same score: they say more about where. */
const PRECISION: Record<AddrType, number> = {
  PointAddress: 0,
  StreetAddress: 1,
  StreetName: 2,
  PostalLoc: 3,
  Locality: 4,
  Region: 4,
  Country: 4,
};

/** Best first; one candidate per (type, address, place), keeping its highest score. */
export function rankMatches(matches: GeocodeMatch[]): GeocodeMatch[] {
  const best = new Map<string, GeocodeMatch>();
  for (const m of matches) {
    const key = `${m.addrType}|${m.matchAddr}|${m.lon.toFixed(4)}|${m.lat.toFixed(4)}`;
    const seen = best.get(key);
    if (!seen || m.score > seen.score) best.set(key, m);
  }
  return [...best.values()].sort(
    (a, b) =>
      b.score - a.score ||
      PRECISION[a.addrType] - PRECISION[b.addrType] ||
      b.importance - a.importance ||
      a.matchAddr.localeCompare(b.matchAddr),
  );
}
