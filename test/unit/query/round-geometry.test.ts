import { describe, expect, it } from 'vitest';
import { roundGeometry } from '../../../lib/query/round-geometry.js';

describe('geometryPrecision', () => {
  it('rounds x and y only: z and m (and a missing m, null) come back as stored', () => {
    expect(roundGeometry({ paths: [[[1.23456, 2.34567, 3.45678, Number.NaN]]] }, 2)).toEqual({
      paths: [[[1.23, 2.35, 3.45678, Number.NaN]]],
    });
    expect(roundGeometry({ x: 1.23456, y: 2.34567, z: 3.45678, m: 4.56789 }, 1)).toEqual({
      x: 1.2,
      y: 2.3,
      z: 3.45678,
      m: 4.56789,
    });
    expect(roundGeometry({ rings: [[[1.26, 2.24]]] }, 1)).toEqual({ rings: [[[1.3, 2.2]]] });
  });
});
