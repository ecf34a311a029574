import { describe, expect, it } from 'vitest';
import { isClockwise, locatePointInRings, ringSignedArea } from '../../../lib/geometry/point-in-polygon.js';

// Esri orientation: outer ring clockwise, hole counter-clockwise.
const outer = [
  [0, 0],
  [0, 10],
  [10, 10],
  [10, 0],
  [0, 0],
];
const hole = [
  [3, 3],
  [7, 3],
  [7, 7],
  [3, 7],
  [3, 3],
];

describe('locatePointInRings', () => {
  it('finds a point inside the outer ring and outside the hole', () => {
    expect(locatePointInRings(1, 1, [outer, hole])).toBe('inside');
  });

  it('finds a point inside a hole to be outside the polygon', () => {
    expect(locatePointInRings(5, 5, [outer, hole])).toBe('outside');
  });

  it('reports points on an edge or a vertex as boundary, holes included', () => {
    expect(locatePointInRings(0, 5, [outer, hole])).toBe('boundary');
    expect(locatePointInRings(10, 10, [outer, hole])).toBe('boundary');
    expect(locatePointInRings(5, 3, [outer, hole])).toBe('boundary');
  });

  it('counts a ray through a vertex once', () => {
    const diamond = [
      [5, 0],
      [0, 5],
      [5, 10],
      [10, 5],
      [5, 0],
    ];
    expect(locatePointInRings(2, 5, [diamond])).toBe('inside');
    expect(locatePointInRings(-1, 5, [diamond])).toBe('outside');
  });

  it('treats an island inside a hole as inside again (even-odd)', () => {
    const island = [
      [4, 4],
      [4, 6],
      [6, 6],
      [6, 4],
      [4, 4],
    ];
    expect(locatePointInRings(5, 5, [outer, hole, island])).toBe('inside');
  });

  it('implies the closing edge of an unclosed ring', () => {
    expect(locatePointInRings(5, 5, [outer.slice(0, 4)])).toBe('inside');
  });
});

describe('ring orientation', () => {
  it('gives a clockwise ring a negative area of the right size', () => {
    expect(ringSignedArea(outer)).toBe(-100);
    expect(isClockwise(outer)).toBe(true);
    expect(isClockwise(hole)).toBe(false);
  });
});
