import type { Context } from 'hono';
import { badRequest } from '../../lib/errors.js';
import type { AddressInput } from '../../lib/geocode/gazetteer-types.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import type { AppEnv } from '../env.js';
import type { RequestParams } from '../params.js';

/** Request parameters by lower-cased name: clients differ in spelling (singleLine, SingleLine). */
export type GeocodeParams = Map<string, string>;

/**
 * The request's parameters, keys lower-cased: the app's parsed parameters when the router runs inside the
 * API (which has already read the body), otherwise the query string and a form body read here.
 */
export async function readGeocodeParams(c: Context<AppEnv>): Promise<GeocodeParams> {
  const parsed = c.get('params');
  if (parsed) return new Map(Object.entries(parsed.all()));
  const params: GeocodeParams = new Map();
  for (const [key, value] of Object.entries(c.req.query())) params.set(key.toLowerCase(), value);
  if (c.req.method === 'POST') {
    const type = c.req.header('content-type') ?? '';
    if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      const body = await c.req.parseBody();
      for (const [key, value] of Object.entries(body)) {
        if (typeof value === 'string') params.set(key.toLowerCase(), value);
      }
    }
  }
  return params;
}

/** The same parameters in the shape the shared renderer (api/render.ts) reads f and callback from. */
export function asRequestParams(params: GeocodeParams): RequestParams {
  return {
    get: (name) => params.get(name.toLowerCase()),
    has: (name) => params.has(name.toLowerCase()),
    all: () => Object.fromEntries(params),
    file: () => undefined,
    files: () => [],
  };
}

export const isPretty = (params: GeocodeParams): boolean => params.get('f')?.toLowerCase() === 'pjson';

/** The address fields of findAddressCandidates (and of one batch record's attributes). */
export function addressInput(get: (name: string) => string | undefined): AddressInput {
  const address = [get('address'), get('address2'), get('address3')].filter(Boolean).join(' ');
  return {
    singleLine: get('singleline') || get('single line input') || undefined,
    address: address || undefined,
    neighborhood: get('neighborhood') || undefined,
    city: get('city') || undefined,
    subregion: get('subregion') || undefined,
    region: get('region') || undefined,
    postal: get('postal') || undefined,
    postalExt: get('postalext') || undefined,
    countryCode: get('countrycode') || undefined,
  };
}

export const hasAddress = (input: AddressInput): boolean =>
  Object.values(input).some((v) => typeof v === 'string' && v.trim() !== '');

/** maxLocations: a positive integer; absent means the locator's own limit. */
export function maxLocations(params: GeocodeParams): number | undefined {
  const raw = params.get('maxlocations');
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw badRequest("Invalid value for 'maxLocations'.", [`'${raw}' is not a positive integer.`]);
  return n;
}

/** outFields: undefined (none asked), '*' (all) or a list of names. */
export function outFields(params: GeocodeParams): '*' | string[] | undefined {
  const raw = params.get('outfields')?.trim();
  if (!raw) return undefined;
  if (raw === '*') return '*';
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** outSR as a wkid number or a spatial-reference JSON object; WGS84 when absent. */
export function outSpatialReference(params: GeocodeParams): SpatialReference {
  const raw = params.get('outsr')?.trim();
  if (!raw) return { wkid: 4326, latestWkid: 4326 };
  if (/^\d+$/.test(raw)) return { wkid: Number(raw) };
  try {
    const sr = JSON.parse(raw) as SpatialReference;
    if (typeof sr === 'object' && sr !== null && (typeof sr.wkid === 'number' || typeof sr.wkt === 'string'))
      return sr;
  } catch {
    // falls through to the error below
  }
  throw badRequest("Invalid value for 'outSR'.", [`'${raw}' is not a spatial reference.`]);
}

/** The `addresses` parameter of geocodeAddresses: {records:[{attributes:{OBJECTID,...}}]}. */
export function batchAddresses(params: GeocodeParams): Record<string, unknown>[] {
  const raw = params.get('addresses');
  if (!raw) throw badRequest("'addresses' parameter is required.", ["Missing 'addresses'."]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest("Invalid value for 'addresses'.", ["'addresses' is not valid JSON."]);
  }
  const records = (parsed as { records?: unknown })?.records;
  if (!Array.isArray(records))
    throw badRequest("Invalid value for 'addresses'.", ["'addresses' needs a 'records' array."]);
  return records.map((record, i) => {
    const attributes = (record as { attributes?: unknown })?.attributes;
    if (typeof attributes !== 'object' || attributes === null) {
      throw badRequest("Invalid value for 'addresses'.", [`Record ${i} has no 'attributes' object.`]);
    }
    return attributes as Record<string, unknown>;
  });
}
