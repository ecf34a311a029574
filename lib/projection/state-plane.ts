import wkids from './state-plane-wkids.json' with { type: 'json' };

/**
 * US State Plane zones by their ESRI .prj name (NAD_1983_StatePlane_Illinois_East_FIPS_1201_Feet),
 * matched to the EPSG code whose name says the same datum, zone and unit ("NAD83 / Illinois East
 * (ftUS)" → 3435), or to the ESRI code where EPSG has no such zone (Alabama East in feet → 102629).
 * Keys were made from the EPSG and ESRI names in epsg-index 2.0.0 by the same rule as
 * statePlaneKey(): datum, zone words with roman numerals as digits and "zone" left out, unit.
 */
const TABLE = wkids as Record<string, number>;

const ROMAN: Record<string, string> = { i: '1', ii: '2', iii: '3', iv: '4', v: '5', vi: '6', vii: '7' };
const DATUMS: Record<string, string> = {
  nad1983: 'nad83',
  nad1983harn: 'nad83harn',
  nad19832011: 'nad832011',
  nad1927: 'nad27',
};

/** The lookup key of an ESRI state plane name, or null when the name is not one. */
export function statePlaneKey(name: string): string | null {
  const tokens = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const at = tokens.indexOf('stateplane');
  const fips = tokens.indexOf('fips');
  if (at < 1 || fips < at + 2 || !/^\d{4}$/.test(tokens[fips + 1] ?? '')) return null;
  const datum = DATUMS[tokens.slice(0, at).join('')];
  if (!datum) return null;
  const zone = tokens
    .slice(at + 1, fips)
    .map((t) => ROMAN[t] ?? t)
    .filter((t) => t !== 'zone');
  const unit = tokens.slice(fips + 2).join('');
  const suffix = unit === '' ? '' : unit === 'feet' ? 'ftus' : unit === 'feetintl' ? 'ft' : null;
  return suffix === null ? null : datum + zone.join('') + suffix;
}

/** The wkid of an ESRI state plane name, or undefined. */
export function statePlaneWkid(name: string): number | undefined {
  const key = statePlaneKey(name);
  return key === null ? undefined : TABLE[key];
}
