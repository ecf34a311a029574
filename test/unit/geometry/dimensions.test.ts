import { describe, expect, it } from 'vitest';
import { fitEsri, fitGeoJSON, fitPosition, pointOf } from '../../../lib/geometry/dimensions.js';

const XY = { hasZ: false, hasM: false };
const XYZ = { hasZ: true, hasM: false };
const XYM = { hasZ: false, hasM: true };
const XYZM = { hasZ: true, hasM: true };

describe('z and m layouts', () => {
  it('moves ordinates between layouts: z third, m after z; missing z 0, missing m NaN', () => {
    expect(fitPosition([1, 2, 3, 4], XYZM, XYZM)).toEqual([1, 2, 3, 4]);
    expect(fitPosition([1, 2, 3, 4], XYZM, XYM)).toEqual([1, 2, 4]);
    expect(fitPosition([1, 2, 3, 4], XYZM, XYZ)).toEqual([1, 2, 3]);
    expect(fitPosition([1, 2, 3, 4], XYZM, XY)).toEqual([1, 2]);
    expect(fitPosition([1, 2, 9], XYM, XYZM)).toEqual([1, 2, 0, 9]);
    expect(fitPosition([1, 2, 9], XYZ, XYZM)).toEqual([1, 2, 9, Number.NaN]);
    expect(fitPosition([1, 2], XYZM, XYZ)).toEqual([1, 2, 0]);
  });

  it('a point of an XYM position has an m and no z', () => {
    expect(pointOf([1, 2, 5], XYM)).toEqual({ x: 1, y: 2, m: 5 });
    expect(pointOf([1, 2, 5, 6], XYZM)).toEqual({ x: 1, y: 2, z: 5, m: 6 });
  });

  it('fits every position of GeoJSON and Esri geometries', () => {
    expect(
      fitGeoJSON(
        {
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [0, 0, 1, 2],
                [1, 0, 3, 4],
                [0, 1, 5, 6],
                [0, 0, 1, 2],
              ],
            ],
          ],
        },
        XYZM,
        XYM,
      ),
    ).toEqual({
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [0, 0, 2],
            [1, 0, 4],
            [0, 1, 6],
            [0, 0, 2],
          ],
        ],
      ],
    });
    expect(fitEsri({ paths: [[[0, 0, 1, 2]]], spatialReference: { wkid: 3857 } }, XYZM, XYZ)).toEqual({
      paths: [[[0, 0, 1]]],
      spatialReference: { wkid: 3857 },
    });
    expect(fitEsri({ x: 1, y: 2, z: 3, m: 4 }, XYZM, XYM)).toEqual({ x: 1, y: 2, m: 4 });
    expect(fitEsri({ x: 1, y: 2, z: 3, m: 4 }, XYZM, XY)).toEqual({ x: 1, y: 2 });
    // A z stored before the layer declared any is still left out of an x/y answer.
    expect(fitEsri({ paths: [[[0, 0, 5]]] }, XY, XY)).toEqual({ paths: [[[0, 0]]] });
  });
});
