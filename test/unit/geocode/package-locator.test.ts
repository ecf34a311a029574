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

/** Kilometres between two WGS84 points (equirectangular; exact enough within a few hundred km). */
const km = (m: { lon: number; lat: number }, lat: number, lon: number) => {
  const k = Math.PI / 180;
  return Math.hypot((m.lon - lon) * k * Math.cos(((m.lat + lat) / 2) * k), (m.lat - lat) * k) * 6371;
};

describe('places by their names in other languages and scripts, suburbs and small towns', () => {
  // Coordinates of the city centres, as an atlas gives them.
  it.each([
    ['München', 'DEU', 48.137, 11.575],
    ['Wien', 'AUT', 48.208, 16.372],
    ['Москва', 'RUS', 55.756, 37.617],
    ['Napoli', 'ITA', 40.852, 14.268],
    ['Warszawa', 'POL', 52.23, 21.011],
    ['北京', 'CHN', 39.904, 116.407],
  ])('finds %s (%s) by its local name', (name, iso3, lat, lon) => {
    const m = best(name);
    expect(m.addrType).toBe('Locality');
    expect(m.fields.Country).toBe(iso3);
    expect(km(m, lat, lon)).toBeLessThan(15);
  });

  it('prefers the capital named in Russian over the small American towns of its English name', () => {
    const [first, ...rest] = locator.findAddressCandidates({ singleLine: 'Москва' }, { maxLocations: 5 });
    expect(first.fields.Country).toBe('RUS');
    expect(rest.every((m) => m.score <= first.score)).toBe(true);
  });

  it('reads "Epsom, Auckland" as the Auckland suburb, not the English town of the same name', () => {
    const m = best('Epsom, Auckland');
    expect(m.fields.Country).toBe('NZL');
    expect(km(m, -36.887, 174.771)).toBeLessThan(5);
    expect(m.score).toBe(100);
  });

  it('finds a suburb given with a city that is not a region ("Bondi, Sydney")', () => {
    const m = best('Bondi, Sydney');
    expect(m.matchAddr).toMatch(/^Bondi/);
    expect(km(m, -33.891, 151.263)).toBeLessThan(3);
  });

  it('finds a small town of fewer than 1,000 people (Kaikōura is about 2,000; Akaroa about 600)', () => {
    const m = best('Akaroa, New Zealand');
    expect(m.addrType).toBe('Locality');
    expect(km(m, -43.804, 172.968)).toBeLessThan(5);
  });

  it('takes a second-level region as the area ("Chicago, Cook County")', () => {
    const m = best('Chicago, Cook County');
    expect(m.matchAddr).toBe('Chicago, Illinois');
    expect(m.score).toBe(100);
  });

  it('expands Mt to Mount and keeps the region', () => {
    const m = best('Mt Vernon, Washington');
    expect(m.matchAddr).toBe('Mount Vernon, Washington');
    expect(km(m, 48.421, -122.334)).toBeLessThan(5);
  });

  it('finds a one-letter misspelling of a mid-sized town with its region', () => {
    const m = best('Hamiltn, Waikato, New Zealand');
    expect(m.fields.Country).toBe('NZL');
    expect(km(m, -37.787, 175.279)).toBeLessThan(5);
    expect(m.score).toBeLessThan(100);
  });
});

describe('ties', () => {
  it('reports cities of comparable size sharing a name as a tie, and a capital as a match', () => {
    const [springfield, paris, epsomAuckland] = locator.geocodeAddresses([
      { objectId: 1, singleLine: 'Springfield' },
      { objectId: 2, singleLine: 'Paris' },
      { objectId: 3, singleLine: 'Epsom, Auckland' },
    ]);
    expect(springfield.status).toBe('T');
    expect(springfield.match?.fields.Country).toBe('USA');
    expect(paris.status).toBe('M');
    expect(paris.match?.fields.Country).toBe('FRA');
    expect(epsomAuckland.status).toBe('M');
  });
});
