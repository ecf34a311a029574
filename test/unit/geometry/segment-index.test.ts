import { describe, expect, it } from 'vitest';
import { contains } from '../../../lib/geometry/contains.js';
import { intersects } from '../../../lib/geometry/intersects.js';
import { SegmentIndex } from '../../../lib/geometry/segment-index.js';
import { segmentsIntersect } from '../../../lib/geometry/segments.js';

/** A deterministic pseudo-random sequence (LCG), so the comparison is the same on every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

const circle = (cx: number, cy: number, r: number, n: number) => {
  const ring = Array.from({ length: n }, (_, i) => {
    const t = (-2 * Math.PI * i) / n; // clockwise, as Esri outer rings run
    return [cx + r * Math.cos(t), cy + r * Math.sin(t)];
  });
  ring.push(ring[0].slice());
  return ring;
};

describe('SegmentIndex', () => {
  it('finds exactly the segments a brute-force scan finds', () => {
    const next = random(42);
    const paths = Array.from({ length: 20 }, () =>
      Array.from({ length: 50 }, () => [next() * 1000, next() * 1000]),
    );
    const index = new SegmentIndex(paths, false);
    for (let q = 0; q < 200; q++) {
      const a = [next() * 1000, next() * 1000];
      const b = [a[0] + (next() - 0.5) * 200, a[1] + (next() - 0.5) * 200];
      let brute = 0;
      for (const path of paths)
        for (let i = 1; i < path.length; i++) if (segmentsIntersect(a, b, path[i - 1], path[i])) brute++;
      let indexed = 0;
      index.someNear(a, b, (c, d) => {
        if (segmentsIntersect(a, b, c, d)) indexed++;
        return false;
      });
      expect(indexed).toBe(brute);
    }
  });

  it('closes rings when asked and counts each segment once', () => {
    expect(
      new SegmentIndex(
        [
          [
            [0, 0],
            [0, 1],
            [1, 1],
          ],
        ],
        true,
      ).size,
    ).toBe(3);
    expect(
      new SegmentIndex(
        [
          [
            [0, 0],
            [0, 1],
            [1, 1],
          ],
        ],
        false,
      ).size,
    ).toBe(2);
  });
});

describe('predicates on large geometries', () => {
  const big = { rings: [circle(0, 0, 1000, 20_000)] };

  it('finds a line crossing a 20,000-vertex ring', () => {
    expect(
      intersects(
        {
          paths: [
            [
              [-2000, 0.5],
              [-900, 0.5],
            ],
          ],
        },
        big,
      ),
    ).toBe(true);
    expect(
      intersects(
        {
          paths: [
            [
              [-2000, 0.5],
              [-1100, 0.5],
            ],
          ],
        },
        big,
      ),
    ).toBe(false);
  });

  it('decides containment between two rings of thousands of vertices', () => {
    expect(contains(big, { rings: [circle(10, 10, 500, 5000)] })).toBe(true);
    expect(contains(big, { rings: [circle(600, 0, 500, 5000)] })).toBe(false);
  });
});
