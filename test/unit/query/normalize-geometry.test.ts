import { describe, expect, it } from 'vitest';
import { normalizeGeometryFilter, normalizeSpatialRel } from '../../../lib/query/normalize/geometry.js';
import { problemOf } from './query-errors.js';

describe('geometry filter', () => {
  it('is null without a geometry', () => {
    expect(normalizeGeometryFilter({ geometrytype: 'esriGeometryPoint' })).toBeNull();
  });

  it('reads a comma envelope as an envelope that intersects by default', () => {
    expect(normalizeGeometryFilter({ geometry: '-10,-5,10,5' })).toEqual({
      geometry: { xmin: -10, ymin: -5, xmax: 10, ymax: 5 },
      geometryType: 'esriGeometryEnvelope',
      inSR: null,
      spatialRel: 'esriSpatialRelIntersects',
      bounds: [-10, -5, 10, 5],
      distance: null,
    });
  });

  it('orders the bounds of an envelope given corner first', () => {
    expect(normalizeGeometryFilter({ geometry: '10,5,-10,-5' })?.bounds).toEqual([-10, -5, 10, 5]);
  });

  it('reads x,y as a point', () => {
    expect(normalizeGeometryFilter({ geometry: '3,4', geometrytype: 'esriGeometryPoint' })).toMatchObject({
      geometry: { x: 3, y: 4 },
      geometryType: 'esriGeometryPoint',
      bounds: [3, 4, 3, 4],
    });
  });

  it('reads Esri JSON, taking the type from its keys and the spatial reference from inside it', () => {
    const polygon = '{"rings":[[[0,0],[0,4],[4,4],[4,0],[0,0]]],"spatialReference":{"wkid":3857}}';
    expect(normalizeGeometryFilter({ geometry: polygon, spatialrel: 'esriSpatialRelContains' })).toEqual({
      geometry: {
        rings: [
          [
            [0, 0],
            [0, 4],
            [4, 4],
            [4, 0],
            [0, 0],
          ],
        ],
      },
      geometryType: 'esriGeometryPolygon',
      inSR: { wkid: 3857 },
      spatialRel: 'esriSpatialRelContains',
      bounds: [0, 0, 4, 4],
      distance: null,
    });
  });

  it('lets inSR win over the spatial reference inside the geometry', () => {
    const point = '{"x":1,"y":2,"spatialReference":{"wkid":3857}}';
    expect(normalizeGeometryFilter({ geometry: point, insr: '4326' })?.inSR).toEqual({ wkid: 4326 });
  });

  it('computes the bounds of a polyline', () => {
    const line = '{"paths":[[[1,9],[5,2]],[[-3,0],[0,0]]]}';
    expect(normalizeGeometryFilter({ geometry: line })?.bounds).toEqual([-3, 0, 5, 9]);
  });

  it('refuses JSON whose shape contradicts geometryType', () => {
    expect(
      problemOf('geometry', () =>
        normalizeGeometryFilter({ geometry: '{"x":1,"y":2}', geometrytype: 'esriGeometryPolygon' }),
      ),
    ).toMatch(/does not have the shape of esriGeometryPolygon/);
  });

  it('refuses a comma list of the wrong length', () => {
    expect(problemOf('geometry', () => normalizeGeometryFilter({ geometry: '1,2,3' }))).toMatch(
      /xmin,ymin,xmax,ymax/,
    );
  });

  it('refuses rings that are too short and non-numeric coordinates', () => {
    expect(
      problemOf('geometry', () => normalizeGeometryFilter({ geometry: '{"rings":[[[0,0],[1,1]]]}' })),
    ).toMatch(/at least 3 positions/);
    expect(problemOf('geometry', () => normalizeGeometryFilter({ geometry: '{"x":"a","y":2}' }))).toMatch(
      /finite numbers/,
    );
  });

  it('refuses an unknown geometryType', () => {
    expect(
      problemOf('geometryType', () => normalizeGeometryFilter({ geometry: '1,2', geometrytype: 'circle' })),
    ).toMatch(/'circle' is not one of/);
  });

  it('reads a buffer distance with its units, in any case', () => {
    const filter = normalizeGeometryFilter({
      geometry: '1,2',
      distance: '2.5',
      units: 'esrisrunit_kilometer',
    });
    expect(filter?.distance).toEqual({ value: 2.5, units: 'esriSRUnit_Kilometer' });
  });

  it('leaves the unit to the geometry when units is absent, and reads a distance of 0 as no buffer', () => {
    expect(normalizeGeometryFilter({ geometry: '1,2', distance: '7' })?.distance).toEqual({
      value: 7,
      units: null,
    });
    expect(normalizeGeometryFilter({ geometry: '1,2', distance: '0' })?.distance).toBeNull();
  });

  it('refuses a negative distance, an unknown unit and a buffer with a relation other than intersects', () => {
    expect(problemOf('distance', () => normalizeGeometryFilter({ geometry: '1,2', distance: '-1' }))).toMatch(
      /negative/,
    );
    expect(
      problemOf('units', () =>
        normalizeGeometryFilter({ geometry: '1,2', distance: '1', units: 'esriSRUnit_Degree' }),
      ),
    ).toMatch(/not one of/);
    expect(
      problemOf('distance', () =>
        normalizeGeometryFilter({ geometry: '1,2,3,4', distance: '1', spatialrel: 'esriSpatialRelContains' }),
      ),
    ).toMatch(/esriSpatialRelIntersects/);
  });

  it('takes defaultSR as the geometry reference when inSR is absent', () => {
    expect(normalizeGeometryFilter({ geometry: '1,2', defaultsr: '4326' })?.inSR).toEqual({ wkid: 4326 });
    expect(normalizeGeometryFilter({ geometry: '1,2', defaultsr: '4326', insr: '3857' })?.inSR).toEqual({
      wkid: 3857,
    });
  });
});

describe('spatialRel', () => {
  it('reads the documented names in any case, with or without the prefix', () => {
    expect(normalizeSpatialRel(undefined)).toBe('esriSpatialRelIntersects');
    expect(normalizeSpatialRel('ESRISPATIALRELWITHIN')).toBe('esriSpatialRelWithin');
    expect(normalizeSpatialRel('envelopeIntersects')).toBe('esriSpatialRelEnvelopeIntersects');
  });

  it('reads the relations lib/geometry evaluates beyond intersects, contains and within', () => {
    expect(normalizeSpatialRel('esriSpatialRelTouches')).toBe('esriSpatialRelTouches');
    expect(normalizeSpatialRel('crosses')).toBe('esriSpatialRelCrosses');
  });

  it('refuses the DE-9IM relation string form, which the exact filter does not evaluate', () => {
    expect(problemOf('spatialRel', () => normalizeSpatialRel('esriSpatialRelRelation'))).toMatch(
      /not supported/,
    );
  });
});
