import { describe, expect, it } from 'vitest';
import type { GeocodeRecord } from '../../../activities/publish/geocoder.js';
import { createRemoteGeocoder } from '../../../activities/publish/remote-geocoder.js';
import { isOwnLocator } from '../../../lib/geocode/geocode-service-url.js';

const URL_ = 'https://geo.example.org/arcgis/rest/services/Parcels/GeocodeServer';

/** A GeocodeServer with MaxBatchSize 2 that matches Madison, ties Springfield and misses the rest. */
function fakeServer() {
  const batches: Record<string, unknown>[][] = [];
  const fetchImpl = async (url: string, init?: RequestInit) => {
    if (url === `${URL_}?f=json`) return Response.json({ locatorProperties: { MaxBatchSize: 2 } });
    const form = init?.body as URLSearchParams;
    const records = JSON.parse(form.get('addresses') ?? '{}').records as {
      attributes: Record<string, any>;
    }[];
    batches.push(records.map((r) => r.attributes));
    return Response.json({
      spatialReference: { wkid: 4326 },
      locations: records.map(({ attributes: a }) => ({
        location: a.City === 'Nowhere' ? { x: 'NaN', y: 'NaN' } : { x: -89.4, y: 43.1 },
        attributes: {
          ResultID: a.OBJECTID,
          Status: a.City === 'Madison' ? 'M' : a.City === 'Springfield' ? 'T' : 'U',
        },
      })),
    });
  };
  return { batches, fetchImpl };
}

const records: GeocodeRecord[] = [
  { objectId: 1, address: '1 Main St', city: 'Madison' },
  { objectId: 2, city: 'Springfield' },
  { objectId: 3, city: 'Nowhere' },
];

describe('the remote geocoder', () => {
  it('sends batches no larger than the service’s MaxBatchSize, with ArcGIS field names', async () => {
    const server = fakeServer();
    await createRemoteGeocoder(URL_, server.fetchImpl).geocodeBatch(records);
    expect(server.batches).toEqual([
      [
        { OBJECTID: 1, Address: '1 Main St', City: 'Madison' },
        { OBJECTID: 2, City: 'Springfield' },
      ],
      [{ OBJECTID: 3, City: 'Nowhere' }],
    ]);
  });

  it('reads matched, tied and unmatched results by ResultID', async () => {
    const server = fakeServer();
    const results = await createRemoteGeocoder(URL_, server.fetchImpl).geocodeBatch(records);
    expect(results).toEqual([
      { objectId: 1, location: { x: -89.4, y: 43.1 }, status: 'M' },
      { objectId: 2, location: { x: -89.4, y: 43.1 }, status: 'T' },
      { objectId: 3, location: null, status: 'U' },
    ]);
  });

  it('a service answering with an error fails the batch with its message', async () => {
    const fetchImpl = async () => Response.json({ error: { code: 498, message: 'Invalid token.' } });
    await expect(createRemoteGeocoder(URL_, fetchImpl).geocodeBatch(records)).rejects.toMatchObject({
      details: [`${URL_}?f=json: Invalid token.`],
    });
  });

  it('takes a World GeocodeServer, or none, for the in-process locator', () => {
    expect(isOwnLocator(undefined)).toBe(true);
    expect(isOwnLocator('https://geocode.arcgis.com/arcgis/rest/services/World/GeocodeServer')).toBe(true);
    expect(isOwnLocator('/rest/services/World/GeocodeServer/')).toBe(true);
    expect(isOwnLocator(URL_)).toBe(false);
  });
});
