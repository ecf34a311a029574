import { describe, expect, it } from 'vitest';
import { contains, within } from '../../../lib/geometry/contains.js';
import { spatialRelationHolds } from '../../../lib/geometry/spatial-relation.js';
import { donut, envelope, square } from './sample-shapes.js';

describe('contains', () => {
  it('holds for an envelope and a point strictly inside, not for a point on its edge', () => {
    expect(contains(envelope(0, 0, 10, 10), { x: 5, y: 5 })).toBe(true);
    expect(contains(envelope(0, 0, 10, 10), { x: 0, y: 5 })).toBe(false);
  });

  it('does not hold for a polygon and a point in its hole', () => {
    expect(contains(donut, { x: 5, y: 5 })).toBe(false);
    expect(contains(donut, { x: 1, y: 5 })).toBe(true);
  });

  it('does not hold when a polyline crosses into the hole', () => {
    expect(
      contains(donut, {
        paths: [
          [
            [1, 5],
            [5, 5],
          ],
        ],
      }),
    ).toBe(false);
    expect(
      contains(donut, {
        paths: [
          [
            [1, 1],
            [9, 1],
          ],
        ],
      }),
    ).toBe(true);
  });

  it('does not hold for a line lying only along the polygon boundary', () => {
    expect(
      contains(donut, {
        paths: [
          [
            [0, 2],
            [0, 8],
          ],
        ],
      }),
    ).toBe(false);
  });

  it('holds for a polygon in the solid part and not for one covering the hole', () => {
    expect(contains(donut, square(1, 1, 2, 2))).toBe(true);
    expect(contains(donut, square(2, 2, 8, 8))).toBe(false);
  });

  it('does not hold for a polygon that is exactly the hole', () => {
    expect(contains(donut, square(3, 3, 7, 7))).toBe(false);
  });

  it('holds for a polygon and itself', () => {
    expect(contains(donut, donut)).toBe(true);
  });

  it('holds for a polygon sharing part of the outer edge from inside', () => {
    expect(contains(donut, square(0, 0, 2, 2))).toBe(true);
  });

  it('does not hold for a polygon poking out of the outer ring', () => {
    expect(contains(donut, square(8, 8, 11, 9))).toBe(false);
  });

  it('holds for a polyline and a sub-line spread over two of its segments', () => {
    const line = {
      paths: [
        [
          [0, 0],
          [5, 5],
          [10, 0],
        ],
      ],
    };
    expect(
      contains(line, {
        paths: [
          [
            [1, 1],
            [5, 5],
            [9, 1],
          ],
        ],
      }),
    ).toBe(true);
    expect(
      contains(line, {
        paths: [
          [
            [1, 1],
            [6, 6],
          ],
        ],
      }),
    ).toBe(false);
  });

  it('holds for a polyline and a point on it but not at an open end', () => {
    const line = {
      paths: [
        [
          [0, 0],
          [10, 0],
        ],
      ],
    };
    expect(contains(line, { x: 4, y: 0 })).toBe(true);
    expect(contains(line, { x: 10, y: 0 })).toBe(false);
  });

  it('holds for a multipoint and a subset of its points', () => {
    expect(
      contains(
        {
          points: [
            [1, 1],
            [2, 2],
            [3, 3],
          ],
        },
        {
          points: [
            [3, 3],
            [1, 1],
          ],
        },
      ),
    ).toBe(true);
    expect(
      contains(
        { points: [[1, 1]] },
        {
          points: [
            [1, 1],
            [2, 2],
          ],
        },
      ),
    ).toBe(false);
  });

  it('never holds for a lower dimension containing a higher one', () => {
    expect(
      contains(
        {
          paths: [
            [
              [0, 0],
              [10, 0],
            ],
          ],
        },
        square(0, 0, 1, 1),
      ),
    ).toBe(false);
  });

  it('is the converse of within', () => {
    expect(within({ x: 1, y: 1 }, donut)).toBe(true);
    expect(within(donut, { x: 1, y: 1 })).toBe(false);
  });
});

describe('spatialRelationHolds', () => {
  const query = envelope(0, 0, 10, 10);

  it('reads Contains as the query geometry containing the feature', () => {
    expect(spatialRelationHolds('esriSpatialRelContains', query, { x: 5, y: 5 })).toBe(true);
    expect(spatialRelationHolds('esriSpatialRelWithin', query, { x: 5, y: 5 })).toBe(false);
  });

  it('reads Within as the query geometry lying within the feature', () => {
    expect(spatialRelationHolds('esriSpatialRelWithin', query, square(-1, -1, 11, 11))).toBe(true);
  });

  it('compares only boxes for EnvelopeIntersects', () => {
    const diagonal = {
      paths: [
        [
          [11, 0],
          [20, 9],
        ],
      ],
    };
    const lShape = {
      paths: [
        [
          [-5, 12],
          [12, 12],
          [12, -5],
        ],
      ],
    };
    expect(spatialRelationHolds('esriSpatialRelIntersects', query, lShape)).toBe(false);
    expect(spatialRelationHolds('esriSpatialRelEnvelopeIntersects', query, lShape)).toBe(true);
    expect(spatialRelationHolds('esriSpatialRelEnvelopeIntersects', query, diagonal)).toBe(false);
  });
});
