import { createReadStream } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAddressPointsCsv } from '../../../infra/gazetteer/address-points-csv.js';
import type { AddressPointRecord } from '../../../lib/geocode/gazetteer-types.js';
import type { Locator } from '../../../lib/geocode/locator.js';
import { createMiniLocator } from './mini-locator.js';

let locator: Locator;

beforeAll(async () => {
  locator = await createMiniLocator();
});

const best = (singleLine: string) => locator.findAddressCandidates({ singleLine })[0];

describe('reading an OpenAddresses CSV', () => {
  it('streams rows as address points and skips rows without coordinates or number', async () => {
    const url = new URL('../../fixtures/geocode/openaddresses-chicago.csv', import.meta.url);
    const points: AddressPointRecord[] = [];
    for await (const batch of readAddressPointsCsv(createReadStream(url), { batchSize: 5 }))
      points.push(...batch);
    expect(points).toHaveLength(12);
    expect(points[0]).toMatchObject({
      lon: -87.6359,
      lat: 41.8789,
      number: '233',
      street: 'S Wacker Dr',
      postcode: '60606',
    });
  });

  it('yields batches no larger than asked', async () => {
    const url = new URL('../../fixtures/geocode/openaddresses-chicago.csv', import.meta.url);
    const sizes: number[] = [];
    for await (const batch of readAddressPointsCsv(createReadStream(url), { batchSize: 5 }))
      sizes.push(batch.length);
    expect(sizes).toEqual([5, 5, 2]);
  });

  it('refuses a file without the LON, LAT, NUMBER and STREET columns', async () => {
    const consume = async () => {
      for await (const _ of readAddressPointsCsv('x,y\n1,2\n')) return;
    };
    await expect(consume()).rejects.toThrow(/LON, LAT, NUMBER and STREET/);
  });
});

describe('street-level matching on loaded address points', () => {
  it('finds a house number that is in the data as a PointAddress scoring 100', () => {
    const m = best('233 S Wacker Dr, Chicago, IL 60606');
    expect(m.addrType).toBe('PointAddress');
    expect(m.score).toBe(100);
    expect([m.lon, m.lat]).toEqual([-87.6359, 41.8789]);
    expect(m.matchAddr).toBe('233 S Wacker Dr, Chicago, Illinois, 60606');
  });

  it('matches "South Wacker Drive" to "S Wacker Dr"', () => {
    const m = best('233 South Wacker Drive, Chicago, IL');
    expect(m.addrType).toBe('PointAddress');
    expect(m.score).toBe(100);
  });

  it('interpolates a missing even number between its even neighbours', () => {
    const m = best('130 W Madison St, Chicago, IL');
    expect(m.addrType).toBe('StreetAddress');
    expect(m.lon).toBeCloseTo(-87.6331, 4);
    expect(m.lat).toBeCloseTo(41.8819, 4);
  });

  it('falls back to the street when the number lies beyond every point', () => {
    const m = best('900 N State St, Chicago, IL');
    expect(m.addrType).toBe('StreetName');
    expect(m.score).toBe(90);
  });

  it('tolerates a misspelt street name at a lower score', () => {
    const m = best('233 S Wackr Dr, Chicago, IL');
    expect(m.addrType).toBe('PointAddress');
    expect(m.score).toBeLessThan(100);
    expect(m.score).toBeGreaterThan(85);
  });

  it('finds the street within a misspelt city', () => {
    const m = best('233 S Wacker Dr, Chicgo, IL');
    expect(m.addrType).toBe('PointAddress');
    expect(m.score).toBeLessThan(100);
  });

  it('falls back to the city, at a lower score, when the street is unknown', () => {
    const m = best('12 Nowhere Rd, Chicago, IL');
    expect(m.addrType).toBe('Locality');
    expect(m.score).toBe(80);
  });

  it('reads address fields given separately', () => {
    const [m] = locator.findAddressCandidates({ address: '101 W Madison St', city: 'Chicago', region: 'IL' });
    expect(m.addrType).toBe('PointAddress');
    expect(m.fields.AddNum).toBe('101');
  });

  it('adds address points loaded later without rebuilding the index', () => {
    locator.index.addAddressPoints([
      {
        lon: -89.64,
        lat: 39.8,
        number: '1',
        street: 'Old State Capitol Plz',
        city: 'Springfield',
        region: 'IL',
      },
    ]);
    expect(best('1 Old State Capitol Plaza, Springfield, IL').addrType).toBe('PointAddress');
  });

  it('flags two equally good points at different places as a tie in a batch', () => {
    locator.index.addAddressPoints([
      { lon: -87.7, lat: 41.95, number: '5', street: 'Twin Ln', city: 'Chicago', region: 'IL' },
      {
        lon: -87.6,
        lat: 41.75,
        number: '5',
        street: 'Twin Ln',
        city: 'Chicago',
        region: 'IL',
        postcode: '60619',
      },
    ]);
    const [result] = locator.geocodeAddresses([
      { objectId: 7, address: '5 Twin Ln', city: 'Chicago', region: 'IL' },
    ]);
    expect(result.status).toBe('T');
  });
});

describe('street-level matching without a city', () => {
  it('finds a street spelt as loaded, and one misspelt, with only a postal code', () => {
    const exact = locator.findAddressCandidates({ address: '233 S Wacker Dr', postal: '60606' })[0];
    const misspelt = locator.findAddressCandidates({ address: '233 S Wackr Dr', postal: '60606' })[0];
    expect([exact.addrType, exact.score]).toEqual(['PointAddress', 100]);
    expect(misspelt.addrType).toBe('PointAddress');
    expect(misspelt.score).toBeLessThan(100);
  });
});
