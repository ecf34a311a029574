import { fail, present, readInteger, readNumber } from './parameter-values.js';

/** `maxAllowableOffset`: generalization tolerance in outSR units; 0 or absent means none. */
export function normalizeMaxAllowableOffset(value: string | undefined): number | null {
  const text = present(value);
  if (text === undefined) return null;
  const n = readNumber('maxAllowableOffset', text);
  if (n < 0) throw fail('maxAllowableOffset', 'the offset cannot be negative');
  return n === 0 ? null : n;
}

/** `geometryPrecision`: decimal places kept in output coordinates. */
export function normalizeGeometryPrecision(value: string | undefined): number | null {
  const text = present(value);
  return text === undefined ? null : readInteger('geometryPrecision', text, 0, 17);
}
