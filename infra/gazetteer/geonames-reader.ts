import type { PlaceRecord } from '../../lib/geocode/gazetteer-types.js';

/** Alternate names that are airport or station codes ("MUC", "LHR"), not names a person types as a place. */
const CODE_LIKE = /^[A-Z0-9]{3,4}$/;

/**
 * A copy of a string that does not point into the text it was cut from: V8 keeps long substrings as
 * slices of their parent, and one name kept alive would keep the whole 32 MB dump (64 MB as UTF-16).
 */
const detached = (s: string): string => (s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8'));

/**
 * Reads a GeoNames dump in its tab-separated "geoname" layout (cities500.txt, cities1000.txt...):
 * 0 geonameid, 1 name, 2 asciiname, 3 alternatenames (comma-separated), 4 latitude, 5 longitude,
 * 6 feature class, 7 feature code, 8 country code, 9 cc2, 10 admin1, 11 admin2, 12 admin3, 13 admin4,
 * 14 population, ... Only populated places (feature class P) are kept. Alternate names keep the ones a
 * person could type (not codes, not single letters); the ASCII name goes with them when it differs.
 */
export function readGeonamesPlaces(text: string): PlaceRecord[] {
  const places: PlaceRecord[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (!line) continue;
    const f = line.split('\t');
    if (f.length < 15) throw new Error(`GeoNames dump: line with ${f.length} fields, expected 19`);
    if (f[6] !== 'P') continue;
    const name = detached(f[1]);
    const alternates = new Set<string>();
    if (f[2] && f[2] !== name) alternates.add(f[2]);
    if (f[3]) {
      for (const alt of f[3].split(',')) {
        if (alt.length >= 2 && alt !== name && !CODE_LIKE.test(alt)) alternates.add(alt);
      }
    }
    places.push({
      geonameId: Number(f[0]),
      name,
      altNames: alternates.size > 0 ? [...alternates] : undefined,
      lat: Number(f[4]),
      lon: Number(f[5]),
      featureCode: detached(f[7]),
      countryCode: detached(f[8]),
      regionCode: detached(f[10]),
      subregionCode: f[11] ? detached(f[11]) : undefined,
      population: Number(f[14]) || 0,
    });
  }
  return places;
}
