import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { BoundaryRecord } from '../../lib/geocode/boundary-lookup.js';
import type { CountryRecord, RegionRecord } from '../../lib/geocode/gazetteer-types.js';
import { geoJSONToEsri } from '../../lib/geometry/geojson.js';
import type { GeoJSONGeometry } from '../../lib/geometry/geojson-types.js';
import type { EsriPolygon } from '../../lib/geometry/types.js';
import { loadCountries, loadRegions } from './package-gazetteer.js';

const require = createRequire(import.meta.url);

interface NamedProperties {
  name: string;
}

async function readFeatures(specifier: string, object: string) {
  const topology = JSON.parse(await readFile(require.resolve(specifier), 'utf8')) as Topology;
  const collection = topology.objects[object] as GeometryCollection<NamedProperties>;
  return feature(topology, collection).features.filter((f) => f.geometry !== null);
}

const toPolygon = (geometry: unknown): EsriPolygon =>
  geoJSONToEsri(geometry as GeoJSONGeometry, { wkid: 4326, latestWkid: 4326 }) as EsriPolygon;

/**
 * Country polygons from world-atlas (Natural Earth 1:50m, public domain), keyed by ISO 3166-1 numeric
 * ids; names and codes come from i18n-iso-countries. Areas without an ISO code (Kosovo, Somaliland)
 * keep their Natural Earth name.
 */
export async function loadCountryBoundaries(countries?: CountryRecord[]): Promise<BoundaryRecord[]> {
  const [features, codes, list] = await Promise.all([
    readFeatures('world-atlas/countries-50m.json', 'countries'),
    JSON.parse(await readFile(require.resolve('i18n-iso-countries/codes.json'), 'utf8')) as Promise<
      string[][]
    >,
    countries ?? loadCountries(),
  ]);
  const iso2ByNumeric = new Map(codes.map(([iso2, , numeric]) => [numeric, iso2]));
  const byIso2 = new Map(list.map((c) => [c.iso2, c]));
  return features.map((f) => {
    const country = byIso2.get(iso2ByNumeric.get(String(f.id)) ?? '');
    return {
      kind: 'country',
      name: country?.name ?? f.properties.name,
      codes: country ? [country.iso2, country.iso3, String(f.id)] : [],
      aliases: country ? [f.properties.name, ...country.aliases] : [],
      countryCode: country?.iso2,
      polygon: toPolygon(f.geometry),
    };
  });
}

/** US state polygons from us-atlas (Census Bureau cartographic boundaries, 1:10m), with postal codes. */
export async function loadUsStateBoundaries(regions?: RegionRecord[]): Promise<BoundaryRecord[]> {
  const [features, list] = await Promise.all([
    readFeatures('us-atlas/states-10m.json', 'states'),
    regions ?? loadRegions(),
  ]);
  const abbrByName = new Map(list.filter((r) => r.countryCode === 'US').map((r) => [r.name, r.code]));
  return features.map((f) => {
    const abbr = abbrByName.get(f.properties.name);
    return {
      kind: 'region',
      name: f.properties.name,
      codes: abbr ? [abbr, `US-${abbr}`] : [],
      aliases: [],
      countryCode: 'US',
      polygon: toPolygon(f.geometry),
    };
  });
}

/** Every boundary the shipped packages hold: countries of the world and US states. */
export async function loadPackageBoundaries(): Promise<BoundaryRecord[]> {
  const [countries, states] = await Promise.all([loadCountryBoundaries(), loadUsStateBoundaries()]);
  return [...countries, ...states];
}
