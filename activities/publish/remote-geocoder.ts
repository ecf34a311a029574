/**
 * A Geocoder that calls another ArcGIS GeocodeServer's geocodeAddresses over HTTP, in batches no larger
 * than the MaxBatchSize its service JSON states. Our own World locator is never called this way: the
 * in-process one answers the same, and ArcGIS clients send Esri's World locator by default, which closed
 * networks cannot reach.
 */
import type { AddressRoleName, LocationPlan, LocationRequest } from '../../db/schema/publish-request.js';
import { badRequest } from '../../lib/errors.js';
import { batchesOf } from '../../lib/geocode/address-fields.js';
import { isOwnLocator } from '../../lib/geocode/geocode-service-url.js';
import type { GeocodeRecord, GeocodeResult, Geocoder } from './geocoder.js';

/** A location (request or plan) that may name a GeocodeServer; the schema's address kinds have the field. */
export type WithGeocodeService<T> = T & { geocodeServiceUrl?: string };

/** The other GeocodeServer an address location names, if any; undefined means the in-process locator. */
export function remoteGeocodeService(location: LocationPlan | LocationRequest): string | undefined {
  const url = location.type === 'address' ? location.geocodeServiceUrl : undefined;
  return url && !isOwnLocator(url) ? url : undefined;
}

/** Whether a geocodeServiceUrl can be called: our own World locator, or an http(s) GeocodeServer. */
export const isCallableGeocodeService = (url: string): boolean =>
  isOwnLocator(url) || /^https?:\/\/[^/]+\/.*\/GeocodeServer\/?$/i.test(url);

/** What the geocoder needs of a fetch; the worker passes infra/outbound-fetch.ts's, which checks the host. */
export type FetchLike = (
  url: string,
  init?: { method?: 'GET' | 'POST'; body?: URLSearchParams },
) => Promise<Response>;

const FIELDS: Record<keyof Omit<GeocodeRecord, 'objectId'>, string> = {
  address: 'Address',
  city: 'City',
  region: 'Region',
  postal: 'Postal',
  postalExt: 'PostalExt',
  countryCode: 'CountryCode',
  singleLine: 'SingleLine',
};

/** The parts of a GeocodeServer's answers this reads. */
interface ServiceBody {
  error?: { message?: string };
  locatorProperties?: { MaxBatchSize?: unknown };
  addressFields?: { name?: unknown }[];
  locations?: {
    location?: { x?: unknown; y?: unknown } | null;
    attributes?: {
      ResultID?: unknown;
      Status?: unknown;
      Score?: unknown;
      Match_addr?: unknown;
      Addr_type?: unknown;
    };
  }[];
}

async function readJson(
  fetchImpl: FetchLike,
  url: string,
  init?: Parameters<FetchLike>[1],
): Promise<ServiceBody> {
  const response = await fetchImpl(url, init);
  const body = (await response.json().catch(() => null)) as ServiceBody | null;
  if (!response.ok || !body || body.error) {
    throw badRequest('The geocode service failed.', [
      // Only an ArcGIS error's short message: never the body of whatever answered.
      `${url}: ${typeof body?.error?.message === 'string' ? body.error.message.slice(0, 200) : `HTTP ${response.status}`}`,
    ]);
  }
  return body;
}

/**
 * `fieldNames` (publishParameters' standardizedFieldNames) renames the address roles in the records
 * sent, for services whose address fields are named otherwise (Street for Address, ZIP for Postal…).
 * A name is used only when the service declares it among its addressFields: analyze fills
 * standardizedFieldNames with the data's column names, which a service does not take.
 */
export function createRemoteGeocoder(
  serviceUrl: string,
  fetchImpl: FetchLike,
  fieldNames: Partial<Record<AddressRoleName, string>> = {},
): Geocoder {
  const base = serviceUrl.replace(/\/+$/, '');
  let described: Promise<{ batchSize: number; names: Record<RecordField, string> }> | undefined;
  const describe = () => {
    described ??= readJson(fetchImpl, `${base}?f=json`).then((info) => {
      const n = Number(info.locatorProperties?.MaxBatchSize);
      const declared = (info.addressFields ?? [])
        .map((f) => f.name)
        .filter((name): name is string => typeof name === 'string');
      const known: Partial<Record<AddressRoleName, string>> = {};
      for (const [role, name] of Object.entries(fieldNames)) {
        const match = declared.find((d) => d.toLowerCase() === name?.toLowerCase());
        if (match) known[role as AddressRoleName] = match;
      }
      return { batchSize: Number.isInteger(n) && n > 0 ? n : 1000, names: recordFieldNames(known) };
    });
    return described;
  };
  return {
    async geocodeBatch(records, options = {}) {
      const out: GeocodeResult[] = [];
      const { batchSize, names } = await describe();
      for (const batch of batchesOf(records, batchSize)) {
        const form = new URLSearchParams({
          f: 'json',
          outSR: '4326',
          addresses: JSON.stringify({ records: batch.map((r) => toAttributes(r, names)) }),
          ...(options.countryCode ? { sourceCountry: options.countryCode } : {}),
        });
        const body = await readJson(fetchImpl, `${base}/geocodeAddresses`, { method: 'POST', body: form });
        for (const l of body.locations ?? []) {
          const status = l.attributes?.Status;
          const x = l.location?.x;
          const y = l.location?.y;
          const placed = status !== 'U' && typeof x === 'number' && typeof y === 'number';
          const a = l.attributes ?? {};
          out.push({
            objectId: Number(a.ResultID),
            location: placed ? { x, y } : null,
            status: placed ? (status === 'T' ? 'T' : 'M') : 'U',
            // What the service said of its match, when it said anything.
            ...(placed && (a.Score !== undefined || a.Match_addr !== undefined || a.Addr_type !== undefined)
              ? {
                  candidate: {
                    score: typeof a.Score === 'number' ? a.Score : 0,
                    matchAddr: typeof a.Match_addr === 'string' ? a.Match_addr : '',
                    addrType: typeof a.Addr_type === 'string' ? a.Addr_type : '',
                  },
                }
              : {}),
          });
        }
      }
      return out;
    },
  };
}

type RecordField = keyof Omit<GeocodeRecord, 'objectId'>;

const ROLE_OF: Record<RecordField, AddressRoleName | undefined> = {
  address: 'Address',
  city: 'City',
  region: 'Region',
  postal: 'Postal',
  postalExt: 'PostalExt',
  countryCode: 'CountryCode',
  singleLine: undefined,
};

function recordFieldNames(renamed: Partial<Record<AddressRoleName, string>>): Record<RecordField, string> {
  const names = { ...FIELDS };
  for (const key of Object.keys(names) as RecordField[]) {
    const role = ROLE_OF[key];
    if (role && renamed[role]) names[key] = renamed[role] as string;
  }
  return names;
}

function toAttributes(
  record: GeocodeRecord,
  names: Record<RecordField, string>,
): { attributes: Record<string, string | number> } {
  const attributes: Record<string, string | number> = { OBJECTID: record.objectId };
  for (const [key, field] of Object.entries(names)) {
    const value = record[key as RecordField];
    if (value) attributes[field] = value;
  }
  return { attributes };
}
