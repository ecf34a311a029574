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

  it('keeps z and m on a layer that has them; hasZ/hasM say where they sit, a third ordinate is z', () => {
    const zm = { hasZ: true, hasM: true };
    // Given with hasM only: the third element is the m; the layer's z is then 0.
    expect(
      checkedGeometry(
        {
          hasM: true,
          paths: [
            [
              [1, 2, 30],
              [3, 4, 40],
            ],
          ],
        },
        'esriGeometryPolyline',
        zm,
      ),
    ).toEqual({
      paths: [
        [
          [1, 2, 0, 30],
          [3, 4, 0, 40],
        ],
      ],
    });
    // No flags: a third element is a z; the layer's missing m is NaN.
    expect(checkedGeometry({ points: [[1, 2, 7]] }, 'esriGeometryMultipoint', zm)).toEqual({
      points: [[1, 2, 7, Number.NaN]],
    });
    // A layer with m only keeps the m of an XYZM vertex and drops its z.
    expect(
      checkedGeometry(
        {
          hasZ: true,
          hasM: true,
          paths: [
            [
              [1, 2, 3, 4],
              [5, 6, 7, 8],
            ],
          ],
        },
        'esriGeometryPolyline',
        {
          hasZ: false,
          hasM: true,
        },
      ),
    ).toEqual({
      paths: [
        [
          [1, 2, 4],
          [5, 6, 8],
        ],
      ],
    });
    // Projection moves x/y only.
    const stored = storedGeometry({ x: 180, y: 0, z: 5, m: 9 }, 'esriGeometryPoint', WGS84, WEB_MERCATOR, zm);
    const shape = JSON.parse(stored.shape);
    expect([shape.z, shape.m]).toEqual([5, 9]);
    expect(shape.x).toBeCloseTo(20037508.34, 2);
    expect(description(() => checkedGeometry({ x: 1, y: 2, z: 'high' }, 'esriGeometryPoint', zm))).toBe(
      'A z value must be a finite number.',
    );
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
