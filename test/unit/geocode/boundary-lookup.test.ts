import { beforeAll, describe, expect, it } from 'vitest';
import { loadPackageBoundaries } from '../../../infra/gazetteer/boundary-loader.js';
import { BoundaryLookup } from '../../../lib/geocode/boundary-lookup.js';
import { isClockwise, locatePointInRings } from '../../../lib/geometry/point-in-polygon.js';

let lookup: BoundaryLookup;

beforeAll(async () => {
  lookup = new BoundaryLookup(await loadPackageBoundaries());
}, 60_000);

const inside = (value: string, lon: number, lat: number) =>
  locatePointInRings(lon, lat, lookup.match(value)?.boundary.polygon.rings ?? []) === 'inside';

describe('lookup of country and region values to boundary polygons', () => {
  it('matches a country name to a polygon that holds its capital', () => {
    const m = lookup.match('France');
    expect(m?.score).toBe(100);
    expect(m?.boundary.kind).toBe('country');
    expect(inside('France', 2.35, 48.85)).toBe(true);
    expect(inside('France', -0.13, 51.51)).toBe(false);
  });

  it('matches ISO alpha-2, alpha-3 and numeric codes to the same country', () => {
    const names = ['DE', 'deu', '276'].map((code) => lookup.match(code)?.boundary.name);
    expect(names).toEqual(['Germany', 'Germany', 'Germany']);
  });

  it('matches country names in other languages', () => {
    expect(lookup.match('Allemagne')?.boundary.codes).toContain('DE');
    expect(lookup.match('Schweiz')?.boundary.codes).toContain('CH');
  });

  it('tolerates a misspelt country name at a lower score', () => {
    const m = lookup.match('Germny');
    expect(m?.boundary.name).toBe('Germany');
    expect(m?.score).toBeLessThan(100);
  });

  it('matches US state names and postal codes to state polygons', () => {
    expect(lookup.match('TX')?.boundary.name).toBe('Texas');
    expect(inside('Illinois', -87.63, 41.88)).toBe(true);
  });

  it('reads Georgia alone as the country, and as the state when asked for regions', () => {
    expect(lookup.match('Georgia')?.boundary.kind).toBe('country');
    expect(lookup.match('Georgia', { kind: 'region' })?.boundary.countryCode).toBe('US');
  });

  it('gives Esri polygons with clockwise outer rings', () => {
    const rings = lookup.match('Iceland')?.boundary.polygon.rings ?? [];
    expect(rings.length).toBeGreaterThan(0);
    expect(isClockwise(rings[0])).toBe(true);
  });

  it('matches a whole column, repeated values to the same boundary', () => {
    const matches = lookup.matchMany(['Canada', 'Mexico', 'canada', 'Narnia']);
    expect(matches.map((m) => m?.boundary.codes[0])).toEqual(['CA', 'MX', 'CA', undefined]);
    expect(matches[0]?.boundary).toBe(matches[2]?.boundary);
  });

  it('matches nothing for empty or unknown values', () => {
    expect(lookup.match('')).toBeUndefined();
    expect(lookup.match(null)).toBeUndefined();
    expect(lookup.match('Atlantis Prime')).toBeUndefined();
  });
});
