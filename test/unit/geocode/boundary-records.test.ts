import { describe, expect, it } from 'vitest';
import { BoundaryLookup } from '../../../lib/geocode/boundary-lookup.js';
import { boundaryRecordsFromFeatures } from '../../../lib/geocode/boundary-records.js';
import type { GeoJSONFeature } from '../../../lib/geometry/geojson-types.js';
import { locatePointInRings } from '../../../lib/geometry/point-in-polygon.js';
import { fixtureText } from './mini-locator.js';

const postalAreas = async () =>
  boundaryRecordsFromFeatures(
    (JSON.parse(await fixtureText('postal-areas.geojson')) as { features: GeoJSONFeature[] }).features,
    { kind: 'postal', nameProperty: 'NAME', codeProperties: ['ZCTA5CE20'], countryCode: 'US' },
  );

describe('boundaries loaded from an administrator GeoJSON', () => {
  it('reads each polygon feature with its name and codes, skipping features without a shape', async () => {
    const records = await postalAreas();
    expect(records.map((r) => [r.kind, r.name, r.codes, r.countryCode])).toEqual([
      ['postal', '60601', ['60601'], 'US'],
      ['postal', '60606', ['60606'], 'US'],
    ]);
  });

  it('lets postal codes publish as their polygons through the lookup', async () => {
    const lookup = new BoundaryLookup(await postalAreas());
    const m = lookup.match(60606, { kind: 'postal' });
    expect(m?.score).toBe(100);
    expect(locatePointInRings(-87.6359, 41.8789, m?.boundary.polygon.rings ?? [])).toBe('inside');
  });

  it('refuses features none of which is a named polygon', () => {
    const point: GeoJSONFeature = {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [0, 0] },
      properties: {},
    };
    expect(() => boundaryRecordsFromFeatures([point], { kind: 'postal', nameProperty: 'NAME' })).toThrow(
      /No boundary could be read/,
    );
  });
});
