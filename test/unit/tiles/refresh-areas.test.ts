import { describe, expect, it } from 'vitest';
import { refreshPlan } from '../../../lib/tiles/refresh-areas.js';
import { lonLatToMercator, tileAt } from '../../../lib/tiles/web-mercator.js';

describe('planning the refresh of edited areas', () => {
  const [x, y] = lonLatToMercator(-87.6, 41.9);

  it('touches one tile per level for a point far from tile edges, with no symbol reach', () => {
    const plan = refreshPlan([[x, y, x, y]], 5, 7, 0);
    expect(plan.map((b) => b.level)).toEqual([5, 6, 7]);
    for (const b of plan) {
      const t = tileAt(x, y, b.level);
      expect(b.ranges).toEqual([
        { level: b.level, minRow: t.row, maxRow: t.row, minCol: t.col, maxCol: t.col },
      ]);
      expect(b.row0).toBe(t.row - (t.row % 128));
    }
  });

  it('widens the touched tiles by the symbol reach in pixels', () => {
    const t = tileAt(x, y, 14);
    const plain = refreshPlan([[x, y, x, y]], 14, 14, 0)[0].ranges[0];
    const wide = refreshPlan([[x, y, x, y]], 14, 14, 600)[0].ranges[0];
    expect([plain.minCol, plain.maxCol]).toEqual([t.col, t.col]);
    expect(wide.maxCol - wide.minCol).toBeGreaterThanOrEqual(4);
  });

  it('merges overlapping areas in a bundle and keeps distant ones apart', () => {
    const [x2, y2] = [x + 100, y + 100];
    const [x3, y3] = lonLatToMercator(-86.0, 41.9);
    const plan = refreshPlan(
      [
        [x, y, x, y],
        [x2, y2, x2, y2],
        [x3, y3, x3, y3],
      ],
      12,
      12,
      0,
    );
    const ranges = plan.flatMap((b) => b.ranges);
    expect(ranges.length).toBe(2);
  });

  it('splits an area that crosses a bundle boundary into one range per bundle', () => {
    const span = (2 * 20037508.342789244) / 2 ** 10;
    const edge = -20037508.342787 + 128 * span;
    const plan = refreshPlan([[edge - span / 2, y, edge + span / 2, y]], 10, 10, 0);
    expect(plan.map((b) => b.col0).sort((a, b) => a - b)).toEqual([0, 128]);
  });
});
