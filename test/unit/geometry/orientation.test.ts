import { describe, expect, it } from 'vitest';
import { orientation } from '../../../lib/geometry/orientation.js';

describe('orientation', () => {
  it('is positive when the third point lies left of the directed line', () => {
    expect(orientation(0, 0, 10, 0, 5, 1)).toBe(1);
  });

  it('is negative when the third point lies right of the directed line', () => {
    expect(orientation(0, 0, 10, 0, 5, -1)).toBe(-1);
  });

  it('gets the sign right where the plain floating-point determinant rounds to zero', () => {
    // Shewchuk's classic case: a point one ulp above the line y = x.
    const ay = 0.5 + 2 ** -53;
    const naive = (12 - 0.5) * (24 - ay) - (12 - ay) * (24 - 0.5);
    expect(naive).toBe(0);
    expect(orientation(0.5, ay, 12, 12, 24, 24)).toBe(1);
    expect(orientation(0.5, 0.5, 12, 12, 24, 24)).toBe(0);
  });

  it('tells a point one unit in the last place off a long line from one on it', () => {
    const y = 1e7;
    const nextUp = y + 2 ** -29; // the spacing of doubles near 1e7 is 2^-29
    expect(orientation(0, y, 2e7, y, 1e7, y)).toBe(0);
    expect(orientation(0, y, 2e7, y, 1e7, nextUp)).toBe(1);
  });
});
