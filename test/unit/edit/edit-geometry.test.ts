import { describe, expect, it } from 'vitest';
import { EditFailure } from '../../../lib/edit/edit-errors.js';
import {
  checkedGeometry,
  geometrySpatialReference,
  storedGeometry,
} from '../../../lib/edit/edit-geometry.js';
import { WEB_MERCATOR, WGS84 } from '../../../lib/geometry/types.js';

const description = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof EditFailure) return e.error.description;
    throw e;
  }
  return 'no failure';
};

describe('geometries of edits', () => {
  it('projects a WGS84 point into Web Mercator and keeps x/y only', () => {
    const stored = storedGeometry({ x: 180, y: 0, z: 5 }, 'esriGeometryPoint', WGS84, WEB_MERCATOR);
    const shape = JSON.parse(stored.shape);
    expect(Object.keys(shape)).toEqual(['x', 'y']);
    expect(shape.x).toBeCloseTo(20037508.34, 2);
    expect(stored.bounds[0]).toBeCloseTo(20037508.34, 2);
  });

  it('closes open polygon rings and gives their bounds', () => {
    const g = checkedGeometry(
      {
        rings: [
          [
            [0, 0],
            [0, 2],
            [3, 2],
            [3, 0],
          ],
        ],
      },
      'esriGeometryPolygon',
    );
    expect(g).toEqual({
      rings: [
        [
          [0, 0],
          [0, 2],
          [3, 2],
          [3, 0],
          [0, 0],
        ],
      ],
    });
    const stored = storedGeometry(g, 'esriGeometryPolygon', WEB_MERCATOR, WEB_MERCATOR);
    expect(stored.bounds).toEqual([0, 0, 3, 2]);
  });

  it('refuses another geometry type, non-finite coordinates and degenerate parts', () => {
    expect(
      description(() =>
        checkedGeometry(
          {
            paths: [
              [
                [0, 0],
                [1, 1],
              ],
            ],
          },
          'esriGeometryPoint',
        ),
      ),
    ).toBe('The geometry is a polyline; this layer holds points.');
    expect(description(() => checkedGeometry({ x: 'a', y: 1 }, 'esriGeometryPoint'))).toBe(
      'Coordinates must be finite numbers.',
    );
    expect(description(() => checkedGeometry({ paths: [[[0, 0]]] }, 'esriGeometryPolyline'))).toBe(
      'A path needs at least 2 coordinates.',
    );
    expect(
      description(() =>
        checkedGeometry(
          {
            rings: [
              [
                [0, 0],
                [1, 1],
                [0, 0],
              ],
            ],
          },
          'esriGeometryPolygon',
        ),
      ),
    ).toBe('A ring needs at least three distinct coordinates.');
  });

  it("takes the geometry's own spatial reference over inSR, and inSR over the storage one", () => {
    expect(
      geometrySpatialReference({ x: 1, y: 2, spatialReference: { wkid: 3857 } }, WGS84, WEB_MERCATOR),
    ).toEqual({
      wkid: 3857,
    });
    expect(geometrySpatialReference({ x: 1, y: 2 }, WGS84, WEB_MERCATOR)).toBe(WGS84);
    expect(geometrySpatialReference({ x: 1, y: 2 }, null, WEB_MERCATOR)).toBe(WEB_MERCATOR);
  });

  it('an unknown spatial reference fails the edit rather than the request', () => {
    expect(
      description(() => storedGeometry({ x: 1, y: 2 }, 'esriGeometryPoint', { wkid: 999999 }, WEB_MERCATOR)),
    ).toMatch(/^The geometry cannot be projected/);
  });
});
