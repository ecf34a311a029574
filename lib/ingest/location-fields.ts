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
}

function findCoordinatePair(
  names: readonly string[],
  rows: readonly Record<string, CellValue>[],
  options: DetectOptions,
): Pair | null {
  const lats = names.filter((n) => LATITUDE_NAMES.includes(n.trim().toLowerCase()));
  const lons = names.filter((n) => LONGITUDE_NAMES.includes(n.trim().toLowerCase()));
  let projected: Pair | null = null;
  for (const latitude of lats) {
    const latValues = numericValues(rows, latitude, options);
    if (!latValues) continue;
    for (const longitude of lons) {
      const lonValues = numericValues(rows, longitude, options);
      if (!lonValues) continue;
      const inRange = latValues.every((v) => Math.abs(v) <= 90) && lonValues.every((v) => Math.abs(v) <= 180);
      if (inRange) return { latitude, longitude, projected: false };
      projected ??= { latitude, longitude, projected: true };
    }
  }
  return projected;
}

/** The numbers of a column, or null when it holds none or anything that is not a number. */
function numericValues(
  rows: readonly Record<string, CellValue>[],
  column: string,
  options: DetectOptions,
): number[] | null {
  const out: number[] = [];
  for (const row of rows) {
    const v = row[column];
    if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) continue;
    const n =
      typeof v === 'number' ? v : typeof v === 'string' ? parseNumber(v, options.decimalComma) : Number.NaN;
    if (!Number.isFinite(n)) return null;
    out.push(n);
  }
  return out.length > 0 ? out : null;
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
