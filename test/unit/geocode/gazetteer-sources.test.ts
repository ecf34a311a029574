import { describe, expect, it } from 'vitest';
import { readGeonamesPlaces } from '../../../infra/gazetteer/geonames-reader.js';
import { type AdminVocabulary, parseAddress } from '../../../lib/geocode/address-parser.js';
import { AdminDirectory } from '../../../lib/geocode/admin-directory.js';
import type { PlaceRecord } from '../../../lib/geocode/gazetteer-types.js';
import { mergePlaces } from '../../../lib/geocode/place-merge.js';
import { PlaceTable } from '../../../lib/geocode/place-table.js';

// Two lines in GeoNames' own layout (tab-separated, 19 columns), as cities500.txt holds them.
const GEONAMES = [
  [
    '2867714',
    'Munich',
    'Munich',
    'MUC,Minga,Monaco di Baviera,München,Мюнхен,X',
    '48.13743',
    '11.57549',
    'P',
    'PPLA',
    'DE',
    '',
    '02',
    '091',
    '09162',
    '09162000',
    '1260391',
    '',
    '524',
    'Europe/Berlin',
    '2023-10-12',
  ],
  [
    '6232235',
    'Epsom',
    'Epsom',
    '',
    '-36.88745',
    '174.77059',
    'P',
    'PPLX',
    'NZ',
    '',
    'E7',
    '076',
    '',
    '',
    '19820',
    '',
    '79',
    'Pacific/Auckland',
    '2022-08-09',
  ],
  [
    '2950159',
    'Berlin Hbf',
    'Berlin Hbf',
    '',
    '52.525',
    '13.369',
    'S',
    'RSTN',
    'DE',
    '',
    '16',
    '00',
    '',
    '',
    '0',
    '',
    '34',
    'Europe/Berlin',
    '2020-01-01',
  ],
]
  .map((f) => f.join('\t'))
  .join('\n');

describe('the GeoNames dump reader', () => {
  const places = readGeonamesPlaces(`${GEONAMES}\n`);

  it('keeps populated places only, with their codes, population and position', () => {
    expect(places.map((p) => p.name)).toEqual(['Munich', 'Epsom']);
    expect(places[0]).toMatchObject({
      geonameId: 2867714,
      countryCode: 'DE',
      regionCode: '02',
      subregionCode: '091',
      featureCode: 'PPLA',
      population: 1260391,
      lat: 48.13743,
      lon: 11.57549,
    });
  });

  it('keeps alternate names a person types, not airport codes or single letters', () => {
    expect(places[0].altNames).toEqual(['Minga', 'Monaco di Baviera', 'München', 'Мюнхен']);
    expect(places[1].altNames).toBeUndefined();
  });

  it('refuses a line that is not in the layout', () => {
    expect(() => readGeonamesPlaces('1\tMunich\t48.1\n')).toThrow(/3 fields/);
  });
});

const place = (
  name: string,
  countryCode: string,
  lat: number,
  lon: number,
  extra: Partial<PlaceRecord> = {},
) => ({ name, countryCode, regionCode: '01', lat, lon, population: 0, ...extra }) satisfies PlaceRecord;

describe('merging gazetteers', () => {
  it('adds a place the base lacks and not one it holds under the same name nearby', () => {
    const base = [place('Epsom', 'NZ', -36.887, 174.771, { population: 19820 })];
    const merged = mergePlaces(base, [
      place('Epsom', 'NZ', -36.9, 174.78, { subregionCode: '076' }), // the same suburb, 1.5 km off
      place('Epsom', 'GB', 51.33, -0.27), // another country
      place('Epsom', 'NZ', -41.0, 174.0), // the same name, far away
    ]);
    expect(merged.map((p) => `${p.countryCode} ${p.lat}`)).toEqual(['NZ -36.887', 'GB 51.33', 'NZ -41']);
    expect(merged[0]).toMatchObject({ population: 19820, subregionCode: '076' });
    expect(base[0].subregionCode).toBeUndefined();
  });
});

describe('the place table', () => {
  const table = new PlaceTable([
    place('Munich', 'DE', 48.137, 11.575, { population: 1260391, altNames: ['München', 'Franklin'] }),
    place('Franklin', 'US', 31.026, -96.485, { population: 1610 }),
  ]);

  it('finds a place by an alternate name exactly, saying so', () => {
    expect(table.find('Munchen')).toEqual([{ id: 0, distance: 0, alternate: true }]);
    expect(table.find('Munich')).toEqual([{ id: 0, distance: 0, alternate: false }]);
  });

  it('corrects a misspelling towards own names only, everywhere or within one country', () => {
    expect(table.find('Frawklin')).toEqual([{ id: 1, distance: 1, alternate: false }]);
    expect(table.find('Munixh', () => true, false)).toEqual([]);
    expect(table.fuzzy('munixh', 'DE').map((h) => h.distance)).toEqual([1]);
    expect(table.fuzzy('munixh', 'US')).toEqual([]);
  });
});

describe('second-level regions', () => {
  const admin = new AdminDirectory(
    [],
    [],
    [
      { countryCode: 'US', regionCode: 'IL', code: '031', name: 'Cook County' },
      { countryCode: 'DE', regionCode: '02', code: '091', name: 'Landkreis München' },
    ],
  );

  it('are found by their name with or without the word for their kind', () => {
    expect(admin.subregions('Cook County').map((s) => s.code)).toEqual(['031']);
    expect(admin.subregions('cook').map((s) => s.code)).toEqual(['031']);
    expect(admin.subregions('Munchen', 'DE').map((s) => s.code)).toEqual(['091']);
    expect(admin.subregions('Munchen', 'US')).toEqual([]);
  });
});

describe('readings of two bare names', () => {
  const vocabulary: AdminVocabulary = {
    isCountry: () => false,
    isRegion: (t) => ['auckland', 'christ church'].includes(t.toLowerCase()) || t === 'Christchurch',
    isAmbiguousRegion: (t) => t === 'Christchurch' || t === 'Auckland',
  };
  const parse = (singleLine: string) => parseAddress({ singleLine }, vocabulary);

  it('read a suburb and its city as well as a street and a city', () => {
    expect(parse('Bondi, Sydney')).toEqual([
      { street: 'Bondi', city: 'Sydney' },
      { city: 'Bondi', area: 'Sydney' },
    ]);
  });

  it('give no suburb reading when the first segment has a house number', () => {
    expect(parse('12 Queen Street, Auckland')).toEqual([
      { number: '12', street: 'Queen Street', region: 'Auckland' },
      { number: '12', street: 'Queen Street', city: 'Auckland' },
    ]);
  });

  it('keep the city readings after the region reading when the region may be a place too', () => {
    expect(parse('Bishopdale, Christchurch')).toEqual([
      { city: 'Bishopdale', region: 'Christchurch' },
      { street: 'Bishopdale', city: 'Christchurch' },
      { city: 'Bishopdale', area: 'Christchurch' },
    ]);
  });
});
