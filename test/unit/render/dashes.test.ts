import { describe, expect, it } from 'vitest';
import { dashes } from '../../../lib/render/dashes.js';

describe('dash patterns', () => {
  it('cuts a straight path into on-stretches of the pattern', () => {
    expect(dashes([0, 0, 20, 0], 2, false, [4, 3])).toEqual([
      [0, 0, 4, 0],
      [7, 0, 11, 0],
      [14, 0, 18, 0],
    ]);
  });

  it('carries the pattern phase round corners', () => {
    const out = dashes([0, 0, 2, 0, 2, 4], 3, false, [4, 10]);
    expect(out).toEqual([[0, 0, 2, 0, 2, 2]]);
  });

  it('dashes the closing edge of a ring', () => {
    const out = dashes([0, 0, 10, 0, 10, 10, 0, 10], 4, true, [35, 10]);
    expect(out).toEqual([[0, 0, 10, 0, 10, 10, 0, 10, 0, 5]]);
  });
});
