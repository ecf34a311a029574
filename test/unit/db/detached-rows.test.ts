import { describe, expect, it } from 'vitest';
import { detachedRows } from '../../../db/client.js';

/** postgres.js's result: an Array subclass whose derived arrays are plain (its species is Array). */
class DriverResult<T> extends Array<T> {
  count: number | null = null;
  static override get [Symbol.species]() {
    return Array;
  }
}

describe('detachedRows', () => {
  it('hands the rows over in a plain array of their own and leaves the result empty', () => {
    const result = new DriverResult<{ id: number }>();
    const made = Array.from({ length: 1200 }, (_, i) => ({ id: i + 1 }));
    for (const row of made) result.push(row);
    result.count = 1200;

    const rows = detachedRows(result);

    expect(Object.getPrototypeOf(rows)).toBe(Array.prototype);
    expect(rows).toHaveLength(1200);
    // The very row objects, in order.
    expect(rows.every((row, i) => row === made[i])).toBe(true);
    expect(result).toHaveLength(0);
    expect(result.count).toBe(1200);
  });

  it('answers an empty result with an empty array', () => {
    const rows = detachedRows(new DriverResult<number>());
    expect(rows).toEqual([]);
    expect(Object.getPrototypeOf(rows)).toBe(Array.prototype);
  });
});
