import { describe, expect, it } from 'vitest';
import { partBoundsFor } from '../../../activities/publish/load-layer.js';

/** The parts' sizes a table of `rows` rows gets: object ids 1..rows cut at the bounds (exclusive). */
function sizes(bounds: number[], rows: number): number[] {
  const edges = [1, ...bounds, rows + 1];
  return edges.slice(1).map((e, k) => e - edges[k]);
}

describe('partBoundsFor', () => {
  it('keeps tables under two parts of rows, and tables of unknown size, whole', () => {
    expect(partBoundsFor(undefined, 250_000)).toEqual([]);
    expect(partBoundsFor(499_999, 250_000)).toEqual([]);
    expect(partBoundsFor(Number.NaN, 250_000)).toEqual([]);
  });

  it('cuts a million rows into four parts, the last half the size of the others', () => {
    const bounds = partBoundsFor(1_000_000, 250_000);
    expect(bounds).toEqual([285_715, 571_430, 857_144]);
    const s = sizes(bounds, 1_000_000);
    expect(s.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    for (const size of s.slice(0, 3)) expect(Math.abs(size - 285_714)).toBeLessThanOrEqual(1);
    expect(Math.abs(s[3] - 142_857)).toBeLessThanOrEqual(1);
  });

  it('rises strictly, starts above the first object id and is capped at sixteen parts', () => {
    for (const rows of [500_000, 730_001, 3_333_333, 40_000_000]) {
      const bounds = partBoundsFor(rows, 250_000);
      expect(bounds.length).toBe(Math.min(16, Math.round(rows / 250_000)) - 1);
      expect(bounds[0]).toBeGreaterThan(1);
      for (let k = 1; k < bounds.length; k++) expect(bounds[k]).toBeGreaterThan(bounds[k - 1]);
      expect(bounds.at(-1)).toBeLessThanOrEqual(rows);
    }
  });
});
