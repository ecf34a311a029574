/** Plain reference records the locator is built from; loaders in infra/gazetteer produce them. */

/** A populated place (GeoNames-style). */
export interface PlaceRecord {
  name: string;
  /** Other names of the place (local-language, historic, transliterated); matched exactly, never fuzzily. */
  altNames?: string[];
  /** GeoNames id, when the source has one. */
  geonameId?: number;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** First-level region code within the country (GeoNames admin1 code: "IL", "11", "ZH"). */
  regionCode: string;
  /** Second-level region code within the first (GeoNames admin2 code), when known. */
  subregionCode?: string;
  lon: number;
  lat: number;
  population: number;
  /** GeoNames feature code: PPLC is a capital, PPLA a first-level seat. */
  featureCode?: string;
}

/** A first-level administrative region. */
export interface RegionRecord {
  countryCode: string;
  /** Same code as PlaceRecord.regionCode. */
  code: string;
  name: string;
  /** Postal abbreviation when one is in common use ("IL", "ON", "NSW"). */
  abbr?: string;
}

/** A second-level administrative region (county, district, Landkreis). */
export interface SubregionRecord {
  countryCode: string;
  /** The first-level region it lies in (RegionRecord.code). */
  regionCode: string;
  /** Same code as PlaceRecord.subregionCode. */
  code: string;
  name: string;
}

export interface CountryRecord {
  iso2: string;
  iso3: string;
  /** Display name (English). */
  name: string;
  /** Every other name the country goes by, in any language. */
  aliases: string[];
}

/** A postal code with the point that represents it. */
export interface PostalRecord {
  postal: string;
  countryCode: string;
  city: string;
  /** Region code, abbreviation or name: the index resolves any of them. */
  region: string;
  lon: number;
  lat: number;
}

/** One address point, as OpenAddresses publishes them. */
export interface AddressPointRecord {
  lon: number;
  lat: number;
  number: string;
  street: string;
  unit?: string;
  city?: string;
  district?: string;
  region?: string;
  postcode?: string;
  countryCode?: string;
}

export interface GazetteerData {
  countries: CountryRecord[];
  regions: RegionRecord[];
  subregions?: SubregionRecord[];
  places: PlaceRecord[];
  postals: PostalRecord[];
  addressPoints?: AddressPointRecord[];
}

/** What an address names, field by field (the multi-field input of findAddressCandidates). */
export interface AddressInput {
  singleLine?: string;
  address?: string;
  neighborhood?: string;
  city?: string;
  subregion?: string;
  region?: string;
  postal?: string;
  postalExt?: string;
  countryCode?: string;
}

export type AddrType =
  | 'PointAddress'
  | 'StreetAddress'
  | 'StreetName'
  | 'PostalLoc'
  | 'Locality'
  | 'Region'
  | 'Country';

/** One match, in WGS84. */
export interface GeocodeMatch {
  score: number;
  addrType: AddrType;
  matchAddr: string;
  lon: number;
  lat: number;
  /** Orders areas of equal score: population for a city, above any city for regions and countries. */
  importance: number;
  /** [xmin, ymin, xmax, ymax] in WGS84. */
  extent: [number, number, number, number];
  /** Output fields named as ArcGIS names them (City, Region, RegionAbbr, Postal, Country, AddNum...). */
  fields: Record<string, string | number>;
}
