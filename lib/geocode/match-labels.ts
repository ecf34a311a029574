import type { GazetteerIndex } from './gazetteer-index.js';
import type { AddrType, GeocodeMatch, PostalRecord } from './gazetteer-types.js';

/** Half-size in degrees of the extent a client zooms to, by how precise the match is. */
const EXTENT_HALF_SIZE: Record<AddrType, number> = {
  PointAddress: 0.001,
  StreetAddress: 0.002,
  StreetName: 0.005,
  PostalLoc: 0.03,
  Locality: 0.05,
  Region: 2,
  Country: 5,
};

/** ArcGIS-style rank: smaller is more important (cities by population). */
const localityRank = (population: number): number =>
  population >= 5_000_000
    ? 5
    : population >= 1_000_000
      ? 7
      : population >= 100_000
        ? 10
        : population >= 10_000
          ? 13
          : 15;

export interface AreaNames {
  city: string;
  region: string;
  regionAbbr: string;
  countryCode: string;
  countryIso3: string;
  countryName: string;
}

const joined = (...parts: string[]) => parts.filter(Boolean).join(', ');

export function areaNames(
  index: GazetteerIndex,
  countryCode: string,
  regionText: string,
  city = '',
): AreaNames {
  const region = regionText
    ? (index.admin.region(countryCode, regionText) ??
      index.admin.regions(regionText, countryCode || undefined)[0]?.region)
    : undefined;
  const code = countryCode || region?.countryCode || '';
  const country = index.admin.countryByIso2(code);
  return {
    city,
    // An unresolved numeric admin code ("11") means nothing to a reader: leave the region out.
    region: region?.name ?? (/^\d+$/.test(regionText) ? '' : regionText),
    regionAbbr: region?.abbr ?? '',
    countryCode: code,
    countryIso3: country?.iso3 ?? code,
    countryName: country?.name ?? code,
  };
}

export function buildMatch(
  addrType: AddrType,
  score: number,
  lon: number,
  lat: number,
  names: AreaNames,
  detail: {
    label?: string;
    postal?: string;
    number?: string;
    street?: string;
    population?: number;
    /** Orders candidates of equal score; the population unless given. */
    importance?: number;
  } = {},
): GeocodeMatch {
  const half =
    addrType === 'Locality'
      ? 0.05 + Math.min(0.2, Math.sqrt(detail.population ?? 0) / 10_000)
      : EXTENT_HALF_SIZE[addrType];
  const regionLabel = names.regionAbbr || names.region;
  const stAddr = detail.street ? joined([detail.number, detail.street].filter(Boolean).join(' ')) : '';
  const matchAddr =
    addrType === 'Country'
      ? names.countryName
      : addrType === 'Region'
        ? names.region
        : addrType === 'PostalLoc'
          ? joined(detail.postal ?? '', names.city, names.region)
          : addrType === 'Locality'
            ? joined(names.city, names.region || names.countryName)
            : joined(stAddr, names.city, names.region, detail.postal ?? '');
  const rank =
    addrType === 'Country'
      ? 1
      : addrType === 'Region'
        ? 2
        : addrType === 'Locality'
          ? localityRank(detail.population ?? 0)
          : 20;
  const fields: Record<string, string | number> = {
    Loc_name: 'Gazetteer',
    Match_addr: matchAddr,
    LongLabel: joined(
      addrType === 'Region' || addrType === 'Country'
        ? matchAddr
        : joined(stAddr, detail.postal ?? '', names.city, regionLabel),
      addrType === 'Country' ? '' : names.countryIso3,
    ),
    ShortLabel: stAddr || detail.postal || names.city || names.region || names.countryName,
    Addr_type: addrType,
    Type:
      addrType === 'Locality'
        ? 'City'
        : addrType === 'Region'
          ? 'State or Province'
          : addrType === 'Country'
            ? 'Country'
            : '',
    PlaceName:
      addrType === 'Locality'
        ? names.city
        : addrType === 'Region'
          ? names.region
          : addrType === 'Country'
            ? names.countryName
            : '',
    Rank: rank,
    AddNum: detail.number ?? '',
    StAddr: stAddr,
    StName: detail.street ?? '',
    City: names.city,
    Region: addrType === 'Country' ? '' : names.region,
    RegionAbbr: addrType === 'Country' ? '' : names.regionAbbr,
    Postal: detail.postal ?? '',
    Country: names.countryIso3,
    CntryName: names.countryName,
    X: lon,
    Y: lat,
    DisplayX: lon,
    DisplayY: lat,
    Xmin: lon - half,
    Xmax: lon + half,
    Ymin: lat - half,
    Ymax: lat + half,
  };
  const importance = addrType === 'Country' ? 1e10 : (detail.importance ?? detail.population ?? 0);
  return {
    score,
    addrType,
    matchAddr,
    lon,
    lat,
    importance,
    extent: [lon - half, lat - half, lon + half, lat + half],
    fields,
  };
}

export function postalMatch(index: GazetteerIndex, postal: PostalRecord, score: number): GeocodeMatch {
  const names = areaNames(index, postal.countryCode, postal.region, postal.city);
  return buildMatch('PostalLoc', score, postal.lon, postal.lat, names, { postal: postal.postal });
}

/** Found by an alternate name, a place yields to one of its own name unless ten times as populous. */
const ALTERNATE_NAME_IMPORTANCE = 0.1;

export function placeMatch(
  index: GazetteerIndex,
  id: number,
  score: number,
  alternate = false,
): GeocodeMatch {
  const { places } = index;
  const names = areaNames(index, places.countryCodes[id], places.regionCodes[id], places.names[id]);
  const population = places.population[id];
  return buildMatch('Locality', score, places.lon[id], places.lat[id], names, {
    population,
    importance: alternate ? population * ALTERNATE_NAME_IMPORTANCE : population,
  });
}
