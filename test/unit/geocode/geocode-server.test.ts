import { bulkGeocode, geocode, getGeocodeService } from '@esri/arcgis-rest-geocoding';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGeocodeRouter } from '../../../api/geocode/geocode-server.js';
import type { Locator } from '../../../lib/geocode/locator.js';
import { createMiniLocator } from './mini-locator.js';

let app: ReturnType<typeof createGeocodeRouter>;
let locator: Locator;

beforeAll(async () => {
  locator = await createMiniLocator({ maxBatchSize: 3 });
  app = createGeocodeRouter({ locator });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

interface WireCandidate {
  address: string;
  score: number;
  location: { x: number | string; y: number | string };
  attributes: Record<string, string | number>;
}

/** The wire shapes these tests read (service JSON, candidates, batch locations, error envelope). */
interface WireBody {
  error: { code: number; message: string; details: string[] };
  spatialReference: { wkid?: number; latestWkid?: number };
  singleLineAddressField: { name: string };
  addressFields: { name: string }[];
  locatorProperties: { MaxBatchSize: number };
  candidates: WireCandidate[];
  locations: WireCandidate[];
}

const BASE = 'http://localhost/World/GeocodeServer';
const getJson = async (path: string) => (await (await app.request(`${BASE}${path}`)).json()) as WireBody;
const postForm = async (path: string, form: Record<string, string>) =>
  (await (
    await app.request(`${BASE}${path}`, { method: 'POST', body: new URLSearchParams(form) })
  ).json()) as WireBody;

describe('the GeocodeServer resource', () => {
  it('describes the single-line field, the address fields and the batch sizes', async () => {
    const body = await getJson('?f=json');
    expect(body.singleLineAddressField.name).toBe('SingleLine');
    expect(body.addressFields.map((f) => f.name)).toEqual(
      expect.arrayContaining(['Address', 'City', 'Region', 'Postal', 'CountryCode']),
    );
    expect(body.locatorProperties.MaxBatchSize).toBe(3);
    expect(body.spatialReference.wkid).toBe(4326);
  });

  it('indents the JSON for f=pjson', async () => {
    const text = await (await app.request(`${BASE}?f=pjson`)).text();
    expect(text).toContain('\n  "currentVersion"');
  });

  it('answers an unknown service with an error envelope and HTTP 200', async () => {
    const response = await app.request('http://localhost/Nope/GeocodeServer?f=json');
    expect(response.status).toBe(200);
    expect(((await response.json()) as WireBody).error.code).toBe(404);
  });
});

describe('findAddressCandidates', () => {
  it('answers a GET with candidates carrying score, address and location', async () => {
    const body = await getJson('/findAddressCandidates?SingleLine=Chicago%2C%20IL&f=json');
    expect(body.spatialReference).toEqual({ wkid: 4326, latestWkid: 4326 });
    expect(body.candidates[0]).toMatchObject({
      address: 'Chicago, Illinois',
      score: 100,
      location: { x: -87.65005, y: 41.85003 },
    });
    expect(body.candidates[0].attributes).toEqual({});
  });

  it('reads parameter names in any case', async () => {
    const body = await getJson('/findAddressCandidates?SINGLELINE=60601&F=json');
    expect(body.candidates[0].address).toBe('60601, Chicago, Illinois');
  });

  it('answers a form POST with separate address fields', async () => {
    const body = await postForm('/findAddressCandidates', {
      address: '233 S Wacker Dr',
      city: 'Chicago',
      region: 'IL',
      f: 'json',
    });
    expect(body.candidates[0].address).toBe('233 S Wacker Dr, Chicago, Illinois, 60606');
  });

  it('returns the asked-for outFields, or all of them for *', async () => {
    const some = await getJson('/findAddressCandidates?singleLine=Chicago&outFields=Addr_type,City&f=json');
    expect(some.candidates[0].attributes).toEqual({ Addr_type: 'Locality', City: 'Chicago' });
    const all = await getJson('/findAddressCandidates?singleLine=Chicago&outFields=*&f=json');
    expect(all.candidates[0].attributes).toMatchObject({
      Score: 100,
      Match_addr: 'Chicago, Illinois',
      Country: 'USA',
    });
  });

  it('limits candidates to maxLocations', async () => {
    const body = await getJson('/findAddressCandidates?singleLine=Paris&maxLocations=1&f=json');
    expect(body.candidates).toHaveLength(1);
    expect(body.candidates[0].address).toBe('Paris, Île-de-France');
  });

  it('projects locations and X/Y fields to Web Mercator for outSR=102100', async () => {
    const body = await getJson('/findAddressCandidates?singleLine=Chicago&outSR=102100&outFields=X,Y&f=json');
    expect(body.spatialReference).toEqual({ wkid: 102100, latestWkid: 3857 });
    expect(body.candidates[0].location.x).toBeCloseTo(-9757158.93, 1);
    expect(body.candidates[0].location.y).toBeCloseTo(5138541.07, 1);
    expect(body.candidates[0].attributes.X).toBe(body.candidates[0].location.x);
  });

  it('accepts outSR as spatial-reference JSON', async () => {
    const body = await getJson(
      `/findAddressCandidates?singleLine=Chicago&outSR=${encodeURIComponent('{"wkid":3857}')}&f=json`,
    );
    expect(body.spatialReference.latestWkid).toBe(3857);
  });

  it('answers a request without any address with a 400 error envelope', async () => {
    const body = await getJson('/findAddressCandidates?f=json');
    expect(body.error.code).toBe(400);
    expect(body.error.details).toEqual(["'SingleLine' or address fields are required."]);
  });

  it('answers an unknown outSR with a 400 error envelope', async () => {
    const body = await getJson('/findAddressCandidates?singleLine=Chicago&outSR=999999&f=json');
    expect(body.error.code).toBe(400);
  });
});

describe('geocodeAddresses', () => {
  const addresses = (records: Record<string, unknown>[]) =>
    JSON.stringify({ records: records.map((attributes) => ({ attributes })) });

  it('geocodes a batch, giving each result the OBJECTID as ResultID', async () => {
    const body = await postForm('/geocodeAddresses', {
      addresses: addresses([
        { OBJECTID: 10, SingleLine: '233 S Wacker Dr, Chicago, IL' },
        { OBJECTID: 11, Address: '', City: 'Zurich', CountryCode: 'CHE' },
        { OBJECTID: 12, SingleLine: 'qzxwv plonk' },
      ]),
      f: 'json',
    });
    expect(body.locations.map((l) => [l.attributes.ResultID, l.attributes.Status])).toEqual([
      [10, 'M'],
      [11, 'M'],
      [12, 'U'],
    ]);
    expect(body.locations[0].attributes.Addr_type).toBe('PointAddress');
    expect(body.locations[2].location).toEqual({ x: 'NaN', y: 'NaN' });
  });

  it('geocodes only the first MaxBatchSize records', async () => {
    const records = [1, 2, 3, 4].map((OBJECTID) => ({ OBJECTID, SingleLine: 'Chicago, IL' }));
    const body = await postForm('/geocodeAddresses', { addresses: addresses(records), f: 'json' });
    expect(body.locations).toHaveLength(3);
  });

  it('refuses a record without an OBJECTID', async () => {
    const body = await postForm('/geocodeAddresses', {
      addresses: addresses([{ SingleLine: 'Chicago' }]),
      f: 'json',
    });
    expect(body.error.code).toBe(400);
  });
});

describe('ArcGIS REST JS against the router', () => {
  /** rest-js calls the global fetch; route its requests into the router without a socket. */
  const routeFetchToRouter = () =>
    vi.stubGlobal('fetch', (input: Request | URL | string, init?: RequestInit) =>
      app.request(input instanceof Request ? input : String(input), init),
    );

  it('getGeocodeService() reads the batch size a client must respect', async () => {
    routeFetchToRouter();
    const service = (await getGeocodeService({ endpoint: BASE })) as Awaited<
      ReturnType<typeof getGeocodeService>
    > &
      Pick<WireBody, 'locatorProperties'>;
    expect(service.capabilities).toBe('Geocode');
    expect(service.locatorProperties.MaxBatchSize).toBe(3);
  });

  it('geocode() finds Chicago and reads the spatial reference', async () => {
    routeFetchToRouter();
    const response = await geocode({ endpoint: BASE, singleLine: 'Chicago, IL' });
    expect(response.candidates[0].address).toBe('Chicago, Illinois');
    expect(response.candidates[0].location.spatialReference).toEqual({ wkid: 4326, latestWkid: 4326 });
    expect(response.geoJson?.features[0].geometry).toEqual({
      type: 'Point',
      coordinates: [-87.65005, 41.85003],
    });
  });

  it('bulkGeocode() geocodes records by OBJECTID', async () => {
    routeFetchToRouter();
    const response = await bulkGeocode({
      endpoint: BASE,
      addresses: [
        { OBJECTID: 1, postal: '60601' },
        { OBJECTID: 2, address: '101 W Madison St', city: 'Chicago', region: 'IL' },
      ],
    });
    const attributes = response.locations.map((l) => l.attributes as Record<string, unknown>);
    expect(attributes.map((a) => a.ResultID)).toEqual([1, 2]);
    expect(attributes.map((a) => a.Addr_type)).toEqual(['PostalLoc', 'PointAddress']);
  });
});
