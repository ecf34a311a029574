import { describe, expect, it } from 'vitest';
import { quantizeGeometry, roundTo } from '../../../lib/geometry/quantize.js';
import { simplifyGeometry, simplifyPath } from '../../../lib/geometry/simplify.js';
import type { EsriPolygon, EsriPolyline } from '../../../lib/geometry/types.js';

describe('simplifyPath (Douglas–Peucker)', () => {
  it('drops vertices closer to the kept line than the tolerance', () => {
    const path = [
      [0, 0],
      [1, 0.1],
      [2, -0.1],
      [3, 5],
      [4, 6],
      [5, 7],
    ];
    expect(simplifyPath(path, 0.5)).toEqual([
      [0, 0],
      [2, -0.1],
      [3, 5],
      [5, 7],
    ]);
  });

  it('keeps every vertex farther than the tolerance', () => {
    const zigzag = [
      [0, 0],
      [1, 2],
      [2, 0],
      [3, 2],
      [4, 0],
    ];
    expect(simplifyPath(zigzag, 1)).toEqual(zigzag);
  });

  it('reduces a straight line of many vertices to its two ends', () => {
    const line = Array.from({ length: 100_001 }, (_, i) => [i, i * 2]);
    expect(simplifyPath(line, 0.001)).toEqual([
      [0, 0],
      [100_000, 200_000],
    ]);
  });
});

describe('simplifyGeometry for maxAllowableOffset', () => {
  it('simplifies each path of a polyline and keeps the spatial reference', () => {
    const line: EsriPolyline = {
      paths: [
        [
          [0, 0],
          [5, 0.01],
          [10, 0],
        ],
      ],
      spatialReference: { wkid: 3857 },
    };
    expect(simplifyGeometry(line, 1)).toEqual({
      paths: [
        [
          [0, 0],
          [10, 0],
        ],
      ],
      spatialReference: { wkid: 3857 },
    });
  });

  it('drops a ring that collapses below a triangle but keeps the big one', () => {
    const polygon: EsriPolygon = {
      rings: [
        [
          [0, 0],
          [0, 100],
          [100, 100],
          [100, 0],
          [0, 0],
        ],
        [
          [50, 50],
          [50.1, 50],
          [50.1, 50.1],
          [50, 50.1],
          [50, 50],
        ],
      ],
    };
    expect(simplifyGeometry(polygon, 1).rings).toEqual([polygon.rings[0]]);
  });

  it('keeps the largest ring when every ring would vanish', () => {
    const tiny: EsriPolygon = {
      rings: [
        [
          [0, 0],
          [0, 0.1],
          [0.1, 0.1],
          [0.1, 0],
          [0, 0],
        ],
      ],
    };
    expect(simplifyGeometry(tiny, 10).rings).toEqual(tiny.rings);
  });

  it('leaves points alone', () => {
    expect(simplifyGeometry({ x: 1.23, y: 4.56 }, 10)).toEqual({ x: 1.23, y: 4.56 });
  });
});

describe('quantizeGeometry for geometryPrecision', () => {
  it('rounds to the given number of decimals without producing -0', () => {
    expect(roundTo(-9754916.94321, 2)).toBe(-9754916.94);
    expect(roundTo(-0.0001, 2)).toBe(0);
    expect(Object.is(roundTo(-0.0001, 2), -0)).toBe(false);
  });

  it('rounds a point and its z', () => {
    expect(quantizeGeometry({ x: 1.23456, y: 9.87654, z: 100.555 }, 1)).toEqual({ x: 1.2, y: 9.9, z: 100.6 });
  });

  it('collapses consecutive vertices that become equal', () => {
    const line: EsriPolyline = {
      paths: [
        [
          [0, 0],
          [0.001, 0.001],
          [1, 1],
        ],
      ],
    };
    expect(quantizeGeometry(line, 2).paths).toEqual([
      [
        [0, 0],
        [1, 1],
      ],
    ]);
  });

  it('drops a ring that rounding shrinks below a triangle while keeping the rest', () => {
    const polygon: EsriPolygon = {
      rings: [
        [
          [0, 0],
          [0, 10],
          [10, 10],
          [10, 0],
          [0, 0],
        ],
        [
          [5, 5],
          [5.001, 5],
          [5.001, 5.001],
          [5, 5],
        ],
      ],
    };
    expect(quantizeGeometry(polygon, 1).rings).toEqual([polygon.rings[0]]);
  });

  it('rounds envelope corners', () => {
    expect(quantizeGeometry({ xmin: 0.126, ymin: 0.124, xmax: 1.999, ymax: 2 }, 2)).toEqual({
      xmin: 0.13,
      ymin: 0.12,
      xmax: 2,
      ymax: 2,
    });
  });
});
