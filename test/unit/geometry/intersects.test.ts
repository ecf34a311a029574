import { describe, expect, it } from 'vitest';
import { intersects } from '../../../lib/geometry/intersects.js';
import type { EsriPolygon } from '../../../lib/geometry/types.js';
import { donut, envelope, square } from './sample-shapes.js';

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
