import { describe, expect, it } from 'vitest';
import { contains } from '../../../lib/geometry/contains.js';
import { crosses, overlaps, touches } from '../../../lib/geometry/relate.js';
import { spatialRelationHolds } from '../../../lib/geometry/spatial-relation.js';
import type { EsriPolygon } from '../../../lib/geometry/types.js';
import { line, square } from './sample-shapes.js';

describe('touches', () => {
  it('holds for squares sharing an edge and for squares meeting at a corner', () => {
    expect(touches(square(0, 0, 1, 1), square(1, 0, 2, 1))).toBe(true);
    expect(touches(square(0, 0, 1, 1), square(1, 1, 2, 2))).toBe(true);
  });

  it('does not hold for overlapping squares or squares apart', () => {
    expect(touches(square(0, 0, 2, 2), square(1, 1, 3, 3))).toBe(false);
    expect(touches(square(0, 0, 1, 1), square(2, 2, 3, 3))).toBe(false);
  });

  it('holds for a line ending on a polygon edge from outside', () => {
    expect(touches(line([-1, 0.5], [0, 0.5]), square(0, 0, 1, 1))).toBe(true);
    expect(touches(line([-1, 0.5], [0.5, 0.5]), square(0, 0, 1, 1))).toBe(false);
  });

  it('holds for a point on a polygon edge or at a line end, not inside either', () => {
    expect(touches({ x: 0, y: 0.5 }, square(0, 0, 1, 1))).toBe(true);
    expect(touches({ x: 0.5, y: 0.5 }, square(0, 0, 1, 1))).toBe(false);
    expect(touches({ x: 2, y: 0 }, line([0, 0], [2, 0]))).toBe(true);
    expect(touches({ x: 1, y: 0 }, line([0, 0], [2, 0]))).toBe(false);
  });

  it('holds for lines meeting end to middle, not for lines crossing', () => {
    expect(touches(line([0, 0], [1, 1]), line([1, 1], [2, 0]))).toBe(true);
    expect(touches(line([1, 0], [1, 1]), line([0, 0], [2, 0]))).toBe(true);
    expect(touches(line([0, 0], [2, 2]), line([0, 2], [2, 0]))).toBe(false);
  });

  it('holds for a square filling the hole of a polygon exactly', () => {
    const donut: EsriPolygon = {
      rings: [
        ...square(0, 0, 10, 10).rings,
        [
          [3, 3],
          [7, 3],
          [7, 7],
          [3, 7],
          [3, 3],
        ],
      ],
    };
    expect(touches(donut, square(3, 3, 7, 7))).toBe(true);
    expect(overlaps(donut, square(3, 3, 7, 7))).toBe(false);
    expect(touches(donut, square(2, 2, 8, 8))).toBe(false);
  });

  it('never holds between points', () => {
    expect(touches({ x: 1, y: 1 }, { x: 1, y: 1 })).toBe(false);
  });
});

describe('crosses', () => {
  it('holds for lines crossing at an inner point', () => {
    expect(crosses(line([0, 0], [2, 2]), line([0, 2], [2, 0]))).toBe(true);
  });

  it('holds for lines crossing at a shared inner vertex', () => {
    expect(crosses(line([0, 0], [1, 1], [2, 2]), line([0, 2], [1, 1], [2, 0]))).toBe(true);
  });

  it('does not hold for lines running along each other or meeting only at ends', () => {
    expect(crosses(line([0, 0], [2, 0]), line([1, 0], [3, 0]))).toBe(false);
    expect(crosses(line([0, 0], [1, 1]), line([1, 1], [2, 0]))).toBe(false);
  });

  it('holds for a line passing from outside a polygon to inside', () => {
    expect(crosses(line([-1, 0.5], [0.5, 0.5]), square(0, 0, 1, 1))).toBe(true);
    expect(crosses(line([0.2, 0.5], [0.5, 0.5]), square(0, 0, 1, 1))).toBe(false);
  });

  it('holds for a multipoint with points inside and outside a polygon', () => {
    expect(
      crosses(
        {
          points: [
            [0.5, 0.5],
            [5, 5],
          ],
        },
        square(0, 0, 1, 1),
      ),
    ).toBe(true);
    expect(crosses({ points: [[0.5, 0.5]] }, square(0, 0, 1, 1))).toBe(false);
  });

  it('never holds between two polygons', () => {
    expect(crosses(square(0, 0, 2, 2), square(1, 1, 3, 3))).toBe(false);
  });
});

describe('overlaps', () => {
  it('holds for partly overlapping squares, not when one contains the other', () => {
    expect(overlaps(square(0, 0, 2, 2), square(1, 1, 3, 3))).toBe(true);
    expect(overlaps(square(0, 0, 3, 3), square(1, 1, 2, 2))).toBe(false);
    expect(overlaps(square(0, 0, 1, 1), square(1, 0, 2, 1))).toBe(false);
  });

  it('holds for lines sharing a stretch with parts of their own', () => {
    expect(overlaps(line([0, 0], [2, 0]), line([1, 0], [3, 0]))).toBe(true);
    expect(overlaps(line([0, 0], [3, 0]), line([1, 0], [2, 0]))).toBe(false);
  });

  it('holds for multipoints sharing some points', () => {
    expect(
      overlaps(
        {
          points: [
            [0, 0],
            [1, 1],
          ],
        },
        {
          points: [
            [1, 1],
            [2, 2],
          ],
        },
      ),
    ).toBe(true);
    expect(
      overlaps(
        {
          points: [
            [0, 0],
            [1, 1],
          ],
        },
        { points: [[1, 1]] },
      ),
    ).toBe(false);
  });

  it('never holds across dimensions', () => {
    expect(overlaps(line([-1, 0.5], [0.5, 0.5]), square(0, 0, 1, 1))).toBe(false);
  });
});

describe('line boundaries under the mod-2 rule', () => {
  it('treats the point where two paths meet end to end as inside the line', () => {
    const twoPaths = {
      paths: [
        [
          [0, 0],
          [1, 0],
        ],
        [
          [1, 0],
          [2, 0],
        ],
      ],
    };
    expect(contains(twoPaths, { x: 1, y: 0 })).toBe(true);
    expect(contains(twoPaths, { x: 2, y: 0 })).toBe(false);
  });
});

describe('spatialRelationHolds with the relational operators', () => {
  it('answers Touches, Crosses and Overlaps from the query geometry', () => {
    const query = square(0, 0, 1, 1);
    expect(spatialRelationHolds('esriSpatialRelTouches', query, square(1, 0, 2, 1))).toBe(true);
    expect(spatialRelationHolds('esriSpatialRelCrosses', query, line([-1, 0.5], [0.5, 0.5]))).toBe(true);
    expect(spatialRelationHolds('esriSpatialRelOverlaps', query, square(0.5, 0.5, 2, 2))).toBe(true);
  });
});
