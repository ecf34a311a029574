import type { GeoError } from '../../errors.js';
import { invalidParameter } from '../query-errors.js';

/**
 * Readers of raw wire values shared by the per-parameter normalizers. Parameter names arrive
 * lower-cased; errors name the parameter in its documented spelling.
 */
export type QueryParams = Readonly<Record<string, string | undefined>>;

/** The trimmed value, or undefined when absent or blank (clients send `outSR=` for "default"). */
export function present(value: string | undefined): string | undefined {
  const t = value?.trim();
  return t ? t : undefined;
}

export function readBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  const v = present(value)?.toLowerCase();
  if (v === undefined) return fallback;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw invalidParameter(name, `'${value}' is not true or false`);
}

export function readInteger(name: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^[+-]?\d+$/.test(value)) throw invalidParameter(name, `'${value}' is not an integer`);
  const n = Number(value);
  if (n < min || n > max) throw invalidParameter(name, `${value} is outside ${min}..${max}`);
  return n;
}

export function readNumber(name: string, value: string): number {
  const n = Number(value);
  if (value === '' || !Number.isFinite(n)) throw invalidParameter(name, `'${value}' is not a number`);
  return n;
}

export function readJson(name: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw invalidParameter(name, 'the value is not valid JSON');
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const fail = (name: string, problem: string): GeoError => invalidParameter(name, problem);
