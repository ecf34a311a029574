import { dateFormatsOf } from './date-values.js';
import type { CellValue, DateFormat } from './field-types.js';

/**
 * What one sample value could be, in the spirit of GDAL's AUTODETECT_TYPE: a column takes the
 * narrowest type every value fits. Codes with leading zeros stay text (ZIP codes, FIPS codes).
 */
export type ValueClass =
  | { kind: 'empty' }
  | { kind: 'integer'; value: number }
  | { kind: 'real' }
  | { kind: 'date'; formats: DateFormat[] }
  | { kind: 'text' };

const INTEGER = /^[+-]?(0|[1-9]\d*)$/;
const REAL = /^[+-]?(0|[1-9]\d*)?(\.\d+)?([eE][+-]?\d+)?$/;
const REAL_DECIMAL_COMMA = /^[+-]?(0|[1-9]\d*)(,\d+)?$/;

export interface ClassifyOptions {
  /** Read "3,5" as 3.5 (files written with ';' delimiters in comma-decimal locales). */
  decimalComma?: boolean;
}

export function classifyValue(value: CellValue, options: ClassifyOptions = {}): ValueClass {
  if (value === null || value === undefined) return { kind: 'empty' };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { kind: 'text' };
    return Number.isInteger(value) ? { kind: 'integer', value } : { kind: 'real' };
  }
  if (typeof value === 'boolean') return { kind: 'text' };
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? { kind: 'empty' } : { kind: 'date', formats: ['iso'] };
  }
  const text = value.trim();
  if (text === '') return { kind: 'empty' };
  if (INTEGER.test(text)) return { kind: 'integer', value: Number(text) };
  if (isRealText(text, options.decimalComma === true)) return { kind: 'real' };
  const formats = dateFormatsOf(text);
  return formats.length > 0 ? { kind: 'date', formats } : { kind: 'text' };
}

function isRealText(text: string, decimalComma: boolean): boolean {
  if (decimalComma && REAL_DECIMAL_COMMA.test(text)) return true;
  // Needs a digit somewhere: '.', 'e5' and '+' alone are text.
  return REAL.test(text) && /\d/.test(text.replace(/[eE][+-]?\d+$/, ''));
}

/** A number from text, honouring a decimal comma when asked; NaN when it is not a number. */
export function parseNumber(text: string, decimalComma = false): number {
  const t = text.trim();
  if (t === '') return Number.NaN;
  if (decimalComma && REAL_DECIMAL_COMMA.test(t)) return Number(t.replace(',', '.'));
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number.NaN;
  return Number(t);
}
