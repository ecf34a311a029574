import { describe, expect, it } from 'vitest';
import { distanceToGeometry, pointDistance } from '../../../lib/geometry/distance.js';
import { mapCoordinates } from '../../../lib/geometry/map-coordinates.js';

describe('pointDistance', () => {
  it('is the planar distance in map units', () => {
    expect(pointDistance(0, 0, 3, 4)).toBe(5);
    expect(pointDistance(-9754916.9, 5142738.7, -9754916.9, 5143738.7)).toBeCloseTo(1000, 6);
  });
});

describe('distanceToGeometry', () => {
  it('is the distance to the nearest segment of a polyline', () => {
    expect(
      distanceToGeometry(5, 3, {
        paths: [
          [
            [0, 0],
            [10, 0],
          ],
        ],
      }),
    ).toBe(3);
    expect(
      distanceToGeometry(13, 4, {
        paths: [
          [
            [0, 0],
            [10, 0],
          ],
        ],
      }),
    ).toBe(5);
  });

  it('is zero inside a polygon and the distance to its edge outside', () => {
    const square = {
      rings: [
        [
          [0, 0],
          [0, 10],
          [10, 10],
          [10, 0],
          [0, 0],
        ],
      ],
    };
    expect(distanceToGeometry(5, 5, square)).toBe(0);
    expect(distanceToGeometry(15, 5, square)).toBe(5);
  });

  it('is the distance to the nearest point of a multipoint', () => {
    expect(
      distanceToGeometry(0, 0, {
        points: [
          [6, 8],
          [1, 0],
        ],
      }),
    ).toBe(1);
  });

  it('is measured to the box of an envelope', () => {
    expect(distanceToGeometry(13, 14, { xmin: 0, ymin: 0, xmax: 10, ymax: 10 })).toBe(5);
    expect(distanceToGeometry(3, 3, { xmin: 0, ymin: 0, xmax: 10, ymax: 10 })).toBe(0);
  });

  it('is infinite for an empty geometry', () => {
    expect(distanceToGeometry(0, 0, { paths: [] })).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('mapCoordinates', () => {
  it('maps every vertex and keeps z values', () => {
    const doubled = mapCoordinates(
      {
        paths: [
          [
            [1, 2, 7],
            [3, 4, 8],
          ],
        ],
      },
      (x, y) => [x * 2, y * 2],
    );
    expect(doubled).toEqual({
      paths: [
        [
          [2, 4, 7],
          [6, 8, 8],
        ],
      ],
    });
  });

  it('maps an envelope to the bounds of its mapped edges', () => {
    // A quarter turn of the box [0,0,2,1] gives [0,0,1,2].
    const turned = mapCoordinates({ xmin: 0, ymin: 0, xmax: 2, ymax: 1 }, (x, y) => [1 - y, x]);
    expect(turned).toEqual({ xmin: 0, ymin: 0, xmax: 1, ymax: 2 });
  });
});
