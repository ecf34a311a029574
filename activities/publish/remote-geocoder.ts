/**
 * A Geocoder that calls another ArcGIS GeocodeServer's geocodeAddresses over HTTP, in batches no larger
 * than the MaxBatchSize its service JSON states. Our own World locator is never called this way: the
 * in-process one answers the same, and ArcGIS clients send Esri's World locator by default, which closed
 * networks cannot reach.
 */
import type { LocationPlan, LocationRequest } from '../../db/schema/publish-request.js';
import { badRequest } from '../../lib/errors.js';
import { batchesOf } from '../../lib/geocode/address-fields.js';
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

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/** A World GeocodeServer is taken for ours (or Esri's default): geocoded in process. */
export const isOwnLocator = (url: string | undefined): boolean =>
  !url || /\/rest\/services\/World\/GeocodeServer\/?$/i.test(new URL(url, 'http://local').pathname);

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
  locations?: {
    location?: { x?: unknown; y?: unknown } | null;
    attributes?: { ResultID?: unknown; Status?: unknown };
  }[];
}

async function readJson(fetchImpl: FetchLike, url: string, init?: RequestInit): Promise<ServiceBody> {
  const response = await fetchImpl(url, init);
  const body = (await response.json().catch(() => null)) as ServiceBody | null;
  if (!response.ok || !body || body.error) {
    throw badRequest('The geocode service failed.', [
      `${url}: ${body?.error?.message ?? `HTTP ${response.status}`}`,
    ]);
  }
  return body;
}

export function createRemoteGeocoder(serviceUrl: string, fetchImpl: FetchLike = fetch): Geocoder {
  const base = serviceUrl.replace(/\/+$/, '');
  let maxBatchSize: Promise<number> | undefined;
  const batchSize = () => {
    maxBatchSize ??= readJson(fetchImpl, `${base}?f=json`).then((info) => {
      const n = Number(info.locatorProperties?.MaxBatchSize);
      return Number.isInteger(n) && n > 0 ? n : 1000;
    });
    return maxBatchSize;
  };
  return {
    async geocodeBatch(records, options = {}) {
      const out: GeocodeResult[] = [];
      for (const batch of batchesOf(records, await batchSize())) {
        const form = new URLSearchParams({
          f: 'json',
          outSR: '4326',
          addresses: JSON.stringify({ records: batch.map(toAttributes) }),
          ...(options.countryCode ? { sourceCountry: options.countryCode } : {}),
        });
        const body = await readJson(fetchImpl, `${base}/geocodeAddresses`, { method: 'POST', body: form });
        for (const l of body.locations ?? []) {
          const status = l.attributes?.Status;
          const x = l.location?.x;
          const y = l.location?.y;
          const placed = status !== 'U' && typeof x === 'number' && typeof y === 'number';
          out.push({
            objectId: Number(l.attributes?.ResultID),
            location: placed ? { x, y } : null,
            status: placed ? (status === 'T' ? 'T' : 'M') : 'U',
          });
        }
      }
      return out;
    },
  };
}

function toAttributes(record: GeocodeRecord): { attributes: Record<string, string | number> } {
  const attributes: Record<string, string | number> = { OBJECTID: record.objectId };
  for (const [key, field] of Object.entries(FIELDS)) {
    const value = record[key as keyof typeof FIELDS];
    if (value) attributes[field] = value;
  }
  return { attributes };
}
