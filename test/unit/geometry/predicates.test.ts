import { describe, expect, it } from 'vitest';
import { contains, within } from '../../../lib/geometry/contains.js';
import { intersects } from '../../../lib/geometry/intersects.js';
import { spatialRelationHolds } from '../../../lib/geometry/spatial-relation.js';
import type { EsriPolygon } from '../../../lib/geometry/types.js';

// A 10×10 square (clockwise, Esri outer) with a 4×4 hole in the middle (counter-clockwise).
const donut: EsriPolygon = {
  rings: [
    [
      [0, 0],
      [0, 10],
      [10, 10],
      [10, 0],
      [0, 0],
    ],
    [
      [3, 3],
      [7, 3],
      [7, 7],
      [3, 7],
      [3, 3],
    ],
  ],
};
const square = (x0: number, y0: number, x1: number, y1: number): EsriPolygon => ({
  rings: [
    [
      [x0, y0],
      [x0, y1],
      [x1, y1],
      [x1, y0],
      [x0, y0],
    ],
  ],
});
const envelope = (xmin: number, ymin: number, xmax: number, ymax: number) => ({ xmin, ymin, xmax, ymax });

describe('intersects', () => {
  it('finds a point in the solid part of a polygon with a hole', () => {
    expect(intersects({ x: 1, y: 1 }, donut)).toBe(true);
  });

  it('does not find a point inside the hole', () => {
    expect(intersects({ x: 5, y: 5 }, donut)).toBe(false);
  });

  it('counts a point on the hole edge as intersecting', () => {
    expect(intersects({ x: 3, y: 5 }, donut)).toBe(true);
  });

  it('finds an envelope lying entirely in the hole disjoint from the polygon', () => {
    expect(intersects(envelope(4, 4, 6, 6), donut)).toBe(false);
  });

  it('finds an envelope that straddles the hole edge intersecting', () => {
    expect(intersects(envelope(2, 4, 4, 6), donut)).toBe(true);
  });

  it('finds an envelope wholly inside a large polygon intersecting though no edges cross', () => {
    expect(intersects(envelope(1, 1, 2, 2), square(-100, -100, 100, 100))).toBe(true);
  });

  it('finds crossing polylines intersecting and parallel ones not', () => {
    const a = {
      paths: [
        [
          [0, 0],
          [10, 10],
        ],
      ],
    };
    expect(
      intersects(a, {
        paths: [
          [
            [0, 10],
            [10, 0],
          ],
        ],
      }),
    ).toBe(true);
    expect(
      intersects(a, {
        paths: [
          [
            [0, 1],
            [10, 11],
          ],
        ],
      }),
    ).toBe(false);
  });

  it('finds a polyline touching another at an endpoint intersecting', () => {
    expect(
      intersects(
        {
          paths: [
            [
              [0, 0],
              [5, 5],
            ],
          ],
        },
        {
          paths: [
            [
              [5, 5],
              [9, 0],
            ],
          ],
        },
      ),
    ).toBe(true);
  });

  it('finds collinear overlapping segments intersecting', () => {
    expect(
      intersects(
        {
          paths: [
            [
              [0, 0],
              [4, 0],
            ],
          ],
        },
        {
          paths: [
            [
              [2, 0],
              [8, 0],
            ],
          ],
        },
      ),
    ).toBe(true);
    expect(
      intersects(
        {
          paths: [
            [
              [0, 0],
              [4, 0],
            ],
          ],
        },
        {
          paths: [
            [
              [5, 0],
              [8, 0],
            ],
          ],
        },
      ),
    ).toBe(false);
  });

  it('finds a polyline lying inside a polygon intersecting', () => {
    expect(
      intersects(
        {
          paths: [
            [
              [1, 1],
              [2, 2],
            ],
          ],
        },
        donut,
      ),
    ).toBe(true);
    expect(
      intersects(
        {
          paths: [
            [
              [4, 4],
              [6, 6],
            ],
          ],
        },
        donut,
      ),
    ).toBe(false);
  });

  it('finds a multipoint intersecting when any one of its points does', () => {
    expect(
      intersects(
        {
          points: [
            [5, 5],
            [20, 20],
            [9, 9],
          ],
        },
        donut,
      ),
    ).toBe(true);
    expect(
      intersects(
        {
          points: [
            [5, 5],
            [20, 20],
          ],
        },
        donut,
      ),
    ).toBe(false);
  });

  it('finds a polygon inside the other intersecting, and one in the hole not', () => {
    expect(intersects(square(1, 1, 2, 2), donut)).toBe(true);
    expect(intersects(square(4, 4, 6, 6), donut)).toBe(false);
  });

  it('finds a polygon with several outer rings intersecting through its second part', () => {
    const twoParts: EsriPolygon = { rings: [...square(20, 20, 30, 30).rings, ...square(8, 8, 9, 9).rings] };
    expect(intersects(twoParts, donut)).toBe(true);
  });

  it('compares points exactly', () => {
    expect(intersects({ x: 1, y: 2 }, { x: 1, y: 2 })).toBe(true);
    expect(intersects({ x: 1, y: 2 }, { points: [[1, 2.0000001]] })).toBe(false);
  });
});

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
