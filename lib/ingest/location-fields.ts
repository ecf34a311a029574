import type { CellValue } from './field-types.js';
import { parseNumber } from './value-classes.js';

/**
 * Finds where a table keeps its locations, as analyze does: a latitude/longitude pair by the
 * column names Esri's CSV layer recognises (case-insensitive) checked against the value ranges,
 * else address columns by the geocoder's roles, else none (the data becomes a table).
 */

const LATITUDE_NAMES = [
  'lat',
  'lat83',
  'latitude',
  'latitude83',
  'latdecdeg',
  'lat_dd',
  'y',
  'ycenter',
  'point_y',
  'point-y',
];
const LONGITUDE_NAMES = [
  'lon',
  'lng',
  'lng83',
  'long',
  'long83',
  'longitude',
  'longitude83',
  'longdecdeg',
  'long_dd',
  'x',
  'xcenter',
  'point_x',
  'point-x',
];

export type AddressRole = 'Address' | 'City' | 'Region' | 'Postal' | 'CountryCode';

/** Words in a column name that give it an address role; a column takes the first role that fits. */
const ROLE_WORDS: [AddressRole, string[]][] = [
  ['Postal', ['zip', 'zipcode', 'postal', 'postcode', 'postalcode']],
  ['CountryCode', ['country', 'countrycode', 'cntry']],
  ['Region', ['state', 'province', 'region', 'prov']],
  ['City', ['city', 'town', 'municipality', 'locality']],
  ['Address', ['address', 'addr', 'street', 'streetaddress', 'address1', 'addr1']],
];
/** Columns that mention an address role but hold something else. */
const NOT_AN_ADDRESS = ['email', 'mail', 'ip', 'mac', 'web', 'url', 'billing'];

export interface LocationDetection {
  locationType: 'coordinates' | 'address' | 'none';
  latitudeFieldName: string;
  longitudeFieldName: string;
  coordinateFieldType: 'LatitudeAndLongitude';
  addressFields: Partial<Record<AddressRole, string>>;
  /** True when the coordinate columns hold projected values: publishing needs a sourceSR. */
  needsSourceSR: boolean;
  notes: string[];
}

export interface DetectOptions {
  decimalComma?: boolean;
}

/** Lower-case words of a column name: "A1-ProvinceState" → a1, province, state. */
export function nameTokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '');
}

export function detectLocationFields(
  fieldNames: readonly string[],
  sampleRows: readonly Record<string, CellValue>[],
  options: DetectOptions = {},
): LocationDetection {
  const result: LocationDetection = {
    locationType: 'none',
    latitudeFieldName: '',
    longitudeFieldName: '',
    coordinateFieldType: 'LatitudeAndLongitude',
    addressFields: {},
    needsSourceSR: false,
    notes: [],
  };
  const pair = findCoordinatePair(fieldNames, sampleRows, options);
  if (pair) {
    result.locationType = 'coordinates';
    result.latitudeFieldName = pair.latitude;
    result.longitudeFieldName = pair.longitude;
    result.needsSourceSR = pair.projected;
    if (pair.unusable > 0) result.notes.push(`${pair.unusable} sample rows have no usable coordinates.`);
    if (pair.projected) {
      result.notes.push(
        `Columns ${pair.longitude}/${pair.latitude} hold values outside longitude/latitude ranges: ` +
          'they look projected, so publishing needs the sourceSR they are in.',
      );
    }
    return result;
  }
  result.addressFields = detectAddressFields(fieldNames);
  const roles = result.addressFields;
  if (roles.Address || roles.City || roles.Postal) result.locationType = 'address';
  return result;
}

interface Pair {
  latitude: string;
  longitude: string;
  projected: boolean;
  /** Sample rows with something in the pair's columns but no usable coordinates there. */
  unusable: number;
}

/**
 * The first latitude/longitude-named pair (in column order) holding coordinates in most sample rows:
 * in range for degrees if most rows are, else projected if most rows are at least numeric. A few
 * broken rows ("N/A", a stray 999) do not hide a point file; the loader counts them as bad rows.
 */
function findCoordinatePair(
  names: readonly string[],
  rows: readonly Record<string, CellValue>[],
  options: DetectOptions,
): Pair | null {
  const lats = names.filter((n) => LATITUDE_NAMES.includes(n.trim().toLowerCase()));
  const lons = names.filter((n) => LONGITUDE_NAMES.includes(n.trim().toLowerCase()));
  let projected: Pair | null = null;
  for (const latitude of lats) {
    for (const longitude of lons) {
      const { present, numeric, inRange } = pairCounts(rows, latitude, longitude, options);
      if (present === 0) continue;
      if (inRange * 2 > present)
        return { latitude, longitude, projected: false, unusable: present - inRange };
      if (numeric * 2 > present)
        projected ??= { latitude, longitude, projected: true, unusable: present - numeric };
    }
  }
  return projected;
}

function pairCounts(
  rows: readonly Record<string, CellValue>[],
  latitude: string,
  longitude: string,
  options: DetectOptions,
) {
  let present = 0;
  let numeric = 0;
  let inRange = 0;
  for (const row of rows) {
    const lat = toNumber(row[latitude], options);
    const lon = toNumber(row[longitude], options);
    if (lat === null && lon === null) continue;
    present++;
    if (lat === null || lon === null || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    numeric++;
    if (Math.abs(lat) <= 90 && Math.abs(lon) <= 180) inRange++;
  }
  return { present, numeric, inRange };
}

/** A cell as a number; null when empty, NaN when it holds something else. */
function toNumber(v: CellValue, options: DetectOptions): number | null {
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return null;
  if (typeof v === 'number') return v;
  return typeof v === 'string' ? parseNumber(v, options.decimalComma) : Number.NaN;
}

/** Address roles by column name; each role goes to the first column that has it. */
export function detectAddressFields(fieldNames: readonly string[]): Partial<Record<AddressRole, string>> {
  const found: Partial<Record<AddressRole, string>> = {};
  for (const name of fieldNames) {
    const role = addressRoleOf(name);
    if (role && !found[role]) found[role] = name;
  }
  return found;
}

export function addressRoleOf(name: string): AddressRole | null {
  const tokens = nameTokens(name);
  if (tokens.some((t) => NOT_AN_ADDRESS.includes(t))) return null;
  const joined = tokens.join('');
  for (const [role, words] of ROLE_WORDS) {
    if (words.includes(joined) || tokens.some((t) => words.includes(t))) return role;
  }
  return null;
}
