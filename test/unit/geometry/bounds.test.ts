import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import { boundsIntersect, geometryBounds, unionBounds } from '../../../lib/geometry/bounds.js';
import { geometryTypeOf } from '../../../lib/geometry/kinds.js';

describe('geometryBounds', () => {
  it('is the point itself for a point', () => {
    expect(geometryBounds({ x: 3, y: -4 })).toEqual([3, -4, 3, -4]);
  });

  it('covers every vertex of every path of a polyline', () => {
    expect(
      geometryBounds({
        paths: [
          [
            [1, 2],
            [5, -1],
          ],
          [[-3, 7]],
        ],
      }),
    ).toEqual([-3, -1, 5, 7]);
  });

  it('normalizes an envelope given with min and max swapped', () => {
    expect(geometryBounds({ xmin: 10, ymin: 5, xmax: 0, ymax: -5 })).toEqual([0, -5, 10, 5]);
  });

  it('is null for empty geometries', () => {
    expect(geometryBounds({ rings: [] })).toBeNull();
    expect(geometryBounds({ points: [] })).toBeNull();
    expect(geometryBounds({ x: Number.NaN, y: Number.NaN })).toBeNull();
  });

  it('unions bounds while skipping empty ones', () => {
    expect(unionBounds([[0, 0, 1, 1], null, [-1, 0.5, 0.5, 3]])).toEqual([-1, 0, 1, 3]);
    expect(unionBounds([null])).toBeNull();
  });

  it('counts touching boxes as intersecting', () => {
    expect(boundsIntersect([0, 0, 1, 1], [1, 1, 2, 2])).toBe(true);
    expect(boundsIntersect([0, 0, 1, 1], [1.0001, 0, 2, 2])).toBe(false);
  });
});

describe('geometryTypeOf', () => {
  it('tells each Esri geometry kind by its keys', () => {
    expect(geometryTypeOf({ x: 1, y: 2 })).toBe('esriGeometryPoint');
    expect(geometryTypeOf({ points: [] })).toBe('esriGeometryMultipoint');
    expect(geometryTypeOf({ paths: [] })).toBe('esriGeometryPolyline');
    expect(geometryTypeOf({ rings: [] })).toBe('esriGeometryPolygon');
    expect(geometryTypeOf({ xmin: 0, ymin: 0, xmax: 1, ymax: 1 })).toBe('esriGeometryEnvelope');
  });

  it('rejects an object that is no geometry with a 400', () => {
    expect(() => geometryTypeOf({ foo: 1 } as never)).toThrow(GeoError);
  });
});
