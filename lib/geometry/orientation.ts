/**
 * Exact 2-D orientation. The floating-point determinant decides almost every case; only when it is
 * within its rounding-error bound do we recompute it exactly with BigInt, so nearly collinear points
 * (common in projected coordinates of 1e6–1e7 metres) never flip a predicate.
 */

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);
const MANTISSA_MASK = (1n << 52n) - 1n;
/** Every finite double times 2^1074 is an integer; one shared scale keeps differences exact. */
function exact(x: number): bigint {
  F64[0] = x;
  const bits = U64[0];
  const negative = bits >> 63n === 1n;
  const exponent = (bits >> 52n) & 0x7ffn;
  const fraction = bits & MANTISSA_MASK;
  let value: bigint;
  if (exponent === 0n) {
    value = fraction; // subnormal: fraction * 2^-1074
  } else {
    value = (fraction | (1n << 52n)) << (exponent - 1n);
  }
  return negative ? -value : value;
}

// Shewchuk's first error bound for orient2d: (3 + 16ε)ε with ε = 2^-53.
const ERROR_BOUND = 3.3306690738754716e-16;

/**
 * Sign of the turn a→b→c: 1 counter-clockwise (c left of a→b), -1 clockwise, 0 exactly collinear.
 */
export function orientation(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): -1 | 0 | 1 {
  const left = (bx - ax) * (cy - ay);
  const right = (by - ay) * (cx - ax);
  const det = left - right;
  const bound = ERROR_BOUND * (Math.abs(left) + Math.abs(right));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return exactOrientation(ax, ay, bx, by, cx, cy);
}

function exactOrientation(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): -1 | 0 | 1 {
  const eax = exact(ax);
  const eay = exact(ay);
  const det = (exact(bx) - eax) * (exact(cy) - eay) - (exact(by) - eay) * (exact(cx) - eax);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}
