import { describe, expect, it } from 'vitest';
import { polygonCentroid } from '../../../lib/geometry/centroid.js';
import { expandBounds, withinDistance } from '../../../lib/geometry/within-distance.js';

/** Haversine on the mean sphere, written here independently of the code under test. */
function haversine(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const r = 6371008.8;
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * r * Math.asin(Math.sqrt(a));
}

describe('withinDistance, planar', () => {
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

  it('measures from a point to the nearest edge of a polygon (3-4-5 from a corner)', () => {
    expect(withinDistance({ x: 13, y: 14 }, square, 5, 'planar')).toBe(true);
    expect(withinDistance({ x: 13, y: 14 }, square, 4.99, 'planar')).toBe(false);
  });

  it('counts a point inside the polygon as at distance 0', () => {
    expect(withinDistance({ x: 5, y: 5 }, square, 0.001, 'planar')).toBe(true);
  });

  it('measures between two lines by the nearest vertex to segment', () => {
    const a = {
      paths: [
        [
          [0, 0],
          [10, 0],
        ],
      ],
    };
    const b = {
      paths: [
        [
          [5, 3],
          [5, 8],
        ],
      ],
    };
    expect(withinDistance(a, b, 3, 'planar')).toBe(true);
    expect(withinDistance(a, b, 2.9, 'planar')).toBe(false);
  });
});

describe('withinDistance, geodesic', () => {
  it('agrees with the haversine distance between two points', () => {
    const d = haversine(2.3522, 48.8566, -0.1276, 51.5072); // Paris to London, about 344 km
    expect(withinDistance({ x: 2.3522, y: 48.8566 }, { x: -0.1276, y: 51.5072 }, d + 1, 'geodesic')).toBe(
      true,
    );
    expect(withinDistance({ x: 2.3522, y: 48.8566 }, { x: -0.1276, y: 51.5072 }, d - 1, 'geodesic')).toBe(
      false,
    );
  });

  it('measures to the middle of a meridian edge, not only to its ends', () => {
    // A line along the meridian 0 from 10°S to 10°N; a point at 1°E on the equator is 1° of arc away.
    const line = {
      paths: [
        [
          [0, -10],
          [0, 10],
        ],
      ],
    };
    const oneDegree = haversine(0, 0, 1, 0);
    expect(withinDistance({ x: 1, y: 0 }, line, oneDegree + 1, 'geodesic')).toBe(true);
    expect(withinDistance({ x: 1, y: 0 }, line, oneDegree - 1, 'geodesic')).toBe(false);
  });

  it('widens bounds enough at high latitude', () => {
    const d = 100_000;
    const [xmin, ymin, xmax, ymax] = expandBounds([10, 60, 10, 60], d, 'geodesic');
    expect(haversine(10, 60, xmin, 60)).toBeGreaterThanOrEqual(d * 0.999);
    expect(haversine(10, 60, 10, ymax)).toBeCloseTo(d, 0);
    expect(ymin).toBeLessThan(60);
    expect(xmax).toBeGreaterThan(10);
  });
});

describe('polygonCentroid', () => {
  it('is the centre of an L shape, computed by hand from its two rectangles', () => {
    // 4x2 rectangle (centre 2,1; area 8) plus 2x2 above its left end (centre 1,3; area 4).
    const l = {
      rings: [
        [
          [0, 0],
          [0, 4],
          [2, 4],
          [2, 2],
          [4, 2],
          [4, 0],
          [0, 0],
        ],
      ],
    };
    const c = polygonCentroid(l)!;
    expect(c.x).toBeCloseTo((2 * 8 + 1 * 4) / 12, 12);
    expect(c.y).toBeCloseTo((1 * 8 + 3 * 4) / 12, 12);
  });

  it('subtracts holes, whatever their direction', () => {
    // 10x10 square minus a 2x2 hole centred at (7,5): x = (5*100 - 7*4) / 96.
    const hole = [
      [6, 4],
      [8, 4],
      [8, 6],
      [6, 6],
      [6, 4],
    ];
    const outer = [
      [0, 0],
      [0, 10],
      [10, 10],
      [10, 0],
      [0, 0],
    ];
    for (const rings of [
      [outer, hole],
      [outer, [...hole].reverse()],
    ]) {
      const c = polygonCentroid({ rings })!;
      expect(c.x).toBeCloseTo((5 * 100 - 7 * 4) / 96, 12);
      expect(c.y).toBeCloseTo(5, 12);
    }
  });
});
