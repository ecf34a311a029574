import { beforeAll, describe, expect, it } from 'vitest';
import { loadPackageGazetteer } from '../../../infra/gazetteer/package-gazetteer.js';
import { GazetteerIndex } from '../../../lib/geocode/gazetteer-index.js';
import { createLocator, type Locator } from '../../../lib/geocode/locator.js';

let locator: Locator;

beforeAll(async () => {
  locator = createLocator(new GazetteerIndex(await loadPackageGazetteer()));
}, 300_000);

const best = (singleLine: string, countryCode?: string) =>
  locator.findAddressCandidates({ singleLine }, { maxLocations: 5, countryCode })[0];

describe('the locator over the shipped gazetteers', () => {
  it('finds "Chicago, IL" as a locality scoring 100 near 41.88, -87.63', () => {
    const m = best('Chicago, IL');
    expect(m.addrType).toBe('Locality');
    expect(m.score).toBe(100);
    expect(m.matchAddr).toBe('Chicago, Illinois');
    expect(m.lat).toBeCloseTo(41.88, 1);
    expect(m.lon).toBeCloseTo(-87.63, 1);
  });

  it('finds "Paris, France" in Île-de-France, not in Texas', () => {
    const m = best('Paris, France');
    expect(m.fields.Country).toBe('FRA');
    expect(m.lat).toBeCloseTo(48.85, 1);
    expect(m.lon).toBeCloseTo(2.35, 1);
  });

  it('finds a US ZIP code as a postal location', () => {
    const m = best('60601');
    expect(m.addrType).toBe('PostalLoc');
    expect(m.score).toBe(100);
    expect(m.fields.City).toBe('Chicago');
    expect(m.lat).toBeCloseTo(41.886, 2);
  });

  it('puts a forward sortation area before the city it lies in when both are given', () => {
    const m = best('M5V, Toronto');
    expect(m.addrType).toBe('PostalLoc');
    expect(m.lat).toBeCloseTo(43.64, 1);
  });

  it('finds a full Canadian postal code through its forward sortation area', () => {
    const m = best('M5V 3L9');
    expect(m.addrType).toBe('PostalLoc');
    expect(m.fields.Region).toBe('Ontario');
    expect(m.lat).toBeCloseTo(43.65, 1);
  });

  it('still finds Chicago when it is misspelt "Chicgo", with a score below 100', () => {
    const m = best('Chicgo');
    expect(m.matchAddr).toBe('Chicago, Illinois');
    expect(m.score).toBeLessThan(100);
    expect(m.score).toBeGreaterThanOrEqual(85);
  });

  it('matches "Zurich" to Zürich, scoring it as if typed with the accent', () => {
    const plain = best('Zurich, Switzerland');
    const accented = best('Zürich, Switzerland');
    expect(plain.fields.City).toBe('Zürich');
    expect(plain.score).toBe(100);
    expect(accented.matchAddr).toBe(plain.matchAddr);
  });

  it('ranks the most populous Paris first when no country is given', () => {
    const candidates = locator.findAddressCandidates({ singleLine: 'Paris' }, { maxLocations: 5 });
    expect(candidates[0].fields.Country).toBe('FRA');
    expect(candidates.length).toBe(5);
  });

  it('ranks a city in the named region above same-named cities elsewhere', () => {
    const candidates = locator.findAddressCandidates({ singleLine: 'Toronto, ON' }, { maxLocations: 3 });
    expect(candidates[0].matchAddr).toBe('Toronto, Ontario');
    expect(candidates[1].score).toBeLessThan(candidates[0].score);
  });

  it('finds Springfield, IL rather than Springfield, Missouri', () => {
    expect(best('Springfield, IL').matchAddr).toBe('Springfield, Illinois');
  });

  it('finds a US state named on its own as a region', () => {
    const m = best('Illinois');
    expect(m.addrType).toBe('Region');
    expect(m.fields.RegionAbbr).toBe('IL');
  });

  it('finds a country by its name in another language', () => {
    const m = best('Deutschland');
    expect(m.addrType).toBe('Country');
    expect(m.fields.Country).toBe('DEU');
  });

  it('takes city, region and postal code given as separate fields', () => {
    const [m] = locator.findAddressCandidates({ city: 'springfield', region: 'illinois', postal: '62701' });
    expect(m.addrType).toBe('PostalLoc');
    expect(m.fields.City).toBe('Springfield');
  });

  it('keeps every candidate inside the requested source country', () => {
    const candidates = locator.findAddressCandidates(
      { singleLine: 'Paris' },
      { maxLocations: 10, countryCode: 'USA' },
    );
    expect(candidates.length).toBeGreaterThan(1);
    expect(new Set(candidates.map((c) => c.fields.Country))).toEqual(new Set(['USA']));
  });

  it('tolerates a misspelt country as well as a misspelt city', () => {
    const m = best('Peris, Frnace');
    expect(m.matchAddr).toBe('Paris, Île-de-France');
    expect(m.score).toBeLessThan(100);
  });

  it('finds a state whose name ends in a country\'s name ("New Jersey", not Jersey)', () => {
    const m = best('New Jersey');
    expect(m.addrType).toBe('Region');
    expect(m.fields.RegionAbbr).toBe('NJ');
  });

  it('does not take "10115 Berlin" for the New York ZIP code 10115', () => {
    const m = best('10115 Berlin');
    expect(m.matchAddr).toBe('Berlin, State of Berlin');
    expect(m.fields.Country).toBe('DEU');
  });

  it('returns no candidates for gibberish', () => {
    expect(locator.findAddressCandidates({ singleLine: 'qzxwv plonk' })).toEqual([]);
  });
});

describe('batch geocoding over the shipped gazetteers', () => {
  it('matches each record by OBJECTID and leaves gibberish unmatched', () => {
    const results = locator.geocodeAddresses([
      { objectId: 1, singleLine: 'Chicago, IL' },
      { objectId: 2, city: 'Zurich', countryCode: 'CH' },
      { objectId: 3, singleLine: 'qzxwv plonk' },
      { objectId: 4, postal: '10001' },
    ]);
    expect(results.map((r) => [r.resultId, r.status])).toEqual([
      [1, 'M'],
      [2, 'M'],
      [3, 'U'],
      [4, 'M'],
    ]);
    expect(results[3].match?.fields.City).toBe('New York');
  });

  it('ignores records beyond the batch size, as ArcGIS does', () => {
    const small = createLocator(locator.index, { maxBatchSize: 2 });
    const records = [1, 2, 3].map((objectId) => ({ objectId, singleLine: 'Chicago, IL' }));
    expect(small.geocodeAddresses(records).map((r) => r.resultId)).toEqual([1, 2]);
  });
});
