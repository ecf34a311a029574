import { describe, expect, it } from 'vitest';
import { boundaryKindOf, lookupOf, lookupRows } from '../../../activities/publish/boundary-lookup-rows.js';
import { planLayer } from '../../../activities/publish/layer-plan.js';
import { parsePublishParameters } from '../../../api/publish/publish-parameters.js';
import type { LayerRequest, LocationRequest } from '../../../db/schema/publish-request.js';
import { BoundaryLookup, type BoundaryRecord } from '../../../lib/geocode/boundary-lookup.js';

const square = (x: number) => ({
  rings: [
    [
      [x, 0],
      [x, 1],
      [x + 1, 1],
      [x + 1, 0],
      [x, 0],
    ],
  ],
});
const boundary = (kind: BoundaryRecord['kind'], name: string, codes: string[], x: number, cc?: string) => ({
  kind,
  name,
  codes,
  aliases: [],
  polygon: square(x),
  ...(cc ? { countryCode: cc } : {}),
});
const boundaries = new BoundaryLookup([
  boundary('country', 'France', ['FR', 'FRA'], 0, 'FR'),
  boundary('country', 'Georgia', ['GE', 'GEO'], 1, 'GE'),
  boundary('region', 'Georgia', ['GA'], 2, 'US'),
  boundary('region', 'Texas', ['TX'], 3, 'US'),
]);

const sample = {
  headers: ['Place', 'Sales', 'Country'],
  rows: [
    ['Georgia', '3', 'US'],
    ['Texas', '5', 'US'],
  ],
};
const plan = (location: LocationRequest, withBoundaries = true) => {
  const layer: LayerRequest = { id: 0, name: 'sales', location, layerInfo: {} };
  return planLayer({
    serviceItemId: 'd'.repeat(32),
    layer,
    sample,
    source: { kind: 'features' },
    sourceSR: { wkid: 4326 },
    ...(withBoundaries ? { boundaries } : {}),
  });
};

/** The details of the GeoError `run` throws, joined. */
function detailsOf(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    return ((e as { details?: string[] }).details ?? []).join(' ');
  }
  return 'did not throw';
}

describe('planning a lookup layer', () => {
  it('a lookup layer is a polygon layer looking up the column lookupFields names', () => {
    const p = plan({ type: 'lookup', lookupType: 'State', lookupFields: { state: 'Place' } });
    expect(p.geometryType).toBe('esriGeometryPolygon');
    expect(lookupOf(p)).toEqual({ type: 'lookup', index: 0, kind: 'region' });
  });

  it('of several lookupFields the most specific one is looked up', () => {
    const p = plan({
      type: 'lookup',
      lookupType: 'country',
      lookupFields: { country: 'Country', state: 'Place' },
      sourceCountry: 'us',
    });
    expect(lookupOf(p)).toEqual({ type: 'lookup', index: 0, kind: 'region', countryCode: 'US' });
  });

  it('without lookupFields the column of place names is found in the sample', () => {
    const p = plan({ type: 'lookup', lookupType: '', lookupFields: {} });
    expect(lookupOf(p)).toMatchObject({ type: 'lookup', index: 0 });
  });

  it('without lookupFields and without a matching column the request is refused', () => {
    expect(detailsOf(() => plan({ type: 'lookup', lookupType: '', lookupFields: {} }, false))).toMatch(
      /no column of country, region or postal code values/,
    );
  });

  it('a lookup field naming a missing column is the client’s error', () => {
    const run = () => plan({ type: 'lookup', lookupType: 'country', lookupFields: { country: 'Nation' } });
    expect(detailsOf(run)).toMatch(/'Nation' is not a column/);
  });
});

describe('looking up rows', () => {
  it('names lookupType kinds the way ArcGIS clients write them', () => {
    expect(['Country', 'STATE', 'Province', 'ZIP', 'postal_code', 'city'].map(boundaryKindOf)).toEqual([
      'country',
      'region',
      'region',
      'postal',
      'postal',
      undefined,
    ]);
  });

  it('gives each matched row its polygon and each unmatched row a reason, counting both', () => {
    const result = lookupRows(boundaries, { type: 'lookup', index: 0 }, [['fra'], ['Atlantis'], [null]]);
    expect(result.geometries).toEqual([
      square(0),
      { reason: 'The value matched no boundary.' },
      {
        reason: 'The value matched no boundary.',
      },
    ]);
    expect(result.counts).toEqual({ matched: 1, tied: 0, unmatched: 2 });
  });

  it('the kind decides between a country and a region of the same name', () => {
    const rows = [['Georgia']];
    const anyKind = lookupRows(boundaries, { type: 'lookup', index: 0 }, rows);
    const region = lookupRows(boundaries, { type: 'lookup', index: 0, kind: 'region' }, rows);
    expect(anyKind.geometries[0]).toEqual(square(1));
    expect(region.geometries[0]).toEqual(square(2));
  });

  it('a source country narrows regions but not countries', () => {
    const countries = lookupRows(
      boundaries,
      { type: 'lookup', index: 0, kind: 'country', countryCode: 'US' },
      [['France']],
    );
    const regions = lookupRows(boundaries, { type: 'lookup', index: 0, kind: 'region', countryCode: 'FR' }, [
      ['Texas'],
    ]);
    expect(countries.counts.matched).toBe(1);
    expect(regions.counts.unmatched).toBe(1);
  });
});

describe('lookup publish parameters', () => {
  it('accepts locationType lookup without lookupType and lookupFields', () => {
    const r = parsePublishParameters({
      fileType: 'csv',
      parameters: { name: 'c', locationType: 'lookup', layerInfo: { name: 'c' } },
      buildInitialCache: false,
      outputType: '',
    });
    expect(r.layers[0].location).toEqual({ type: 'lookup', lookupType: '', lookupFields: {} });
  });

  it('reads lookupType and lookupFields as ArcGIS names them', () => {
    const r = parsePublishParameters({
      fileType: 'csv',
      parameters: {
        name: 'c',
        locationType: 'lookup',
        layerInfo: { name: 'c' },
        lookupType: 'country',
        lookupFields: { country: 'Land' },
      },
      buildInitialCache: false,
      outputType: '',
    });
    expect(r.layers[0].location).toEqual({
      type: 'lookup',
      lookupType: 'country',
      lookupFields: { country: 'Land' },
    });
  });
});
