/**
 * One COPY-text encoder per field, built once per layer. Plain text cells that are clearly valid
 * (a decimal number, a short string, a date seen before) take a fast path without allocating;
 * anything else goes through lib/ingest's parseCellValue, which decides and gives the reason, so
 * the result is the same as parsing every cell there, only cheaper on the common case.
 */
import { copyValue } from '../../db/repositories/feature-tables.js';
import type { PlannedField } from '../../db/schema/publish-request.js';
import { type CellValue, type ParseOptions, parseCellValue } from '../../lib/ingest/index.js';

/** The COPY text of a cell, or a rejection. */
export type CellResult = string | { reason: string };

export type CellEncoder = (raw: CellValue) => CellResult;

const INTEGER = /^-?[1-9]\d{0,8}$|^0$/;
const DECIMAL = /^-?(0|[1-9]\d{0,14})(\.\d{1,17})?$/;
const DECIMAL_COMMA = /^-?(0|[1-9]\d{0,14})(,\d{1,17})?$/;
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const DATE_CACHE_LIMIT = 65536;

function slowPath(field: PlannedField, options: ParseOptions): CellEncoder {
  return (raw) => {
    const parsed = parseCellValue(raw, field, options);
    if (!parsed.ok) return { reason: parsed.reason };
    const v = parsed.value;
    return field.type === 'esriFieldTypeDate' && typeof v === 'number'
      ? new Date(v).toISOString()
      : copyValue(v);
  };
}

export function cellEncoder(field: PlannedField, options: ParseOptions): CellEncoder {
  const slow = slowPath(field, options);
  switch (field.type) {
    case 'esriFieldTypeString':
    case 'esriFieldTypeGUID': {
      const max = field.length ?? Number.POSITIVE_INFINITY;
      return (raw) => {
        if (typeof raw !== 'string' || raw.length > max || raw.trim() === '') return slow(raw);
        return NEEDS_ESCAPE.test(raw) ? copyValue(raw) : raw;
      };
    }
    case 'esriFieldTypeInteger':
    case 'esriFieldTypeSmallInteger':
    case 'esriFieldTypeBigInteger': {
      const fast = field.type === 'esriFieldTypeSmallInteger' ? /^-?[1-9]\d{0,3}$|^0$/ : INTEGER;
      return (raw) => (typeof raw === 'string' && fast.test(raw) ? raw : slow(raw));
    }
    case 'esriFieldTypeDouble':
    case 'esriFieldTypeSingle': {
      if (field.type === 'esriFieldTypeSingle') return slow;
      const fast = options.decimalComma ? DECIMAL_COMMA : DECIMAL;
      return (raw) => {
        if (typeof raw !== 'string' || !fast.test(raw)) return slow(raw);
        return options.decimalComma ? raw.replace(',', '.') : raw;
      };
    }
    case 'esriFieldTypeDate': {
      // Date columns repeat their values (days, months): each distinct text is parsed once.
      const cache = new Map<string, CellResult>();
      return (raw) => {
        if (typeof raw !== 'string') return slow(raw);
        let hit = cache.get(raw);
        if (hit === undefined) {
          hit = slow(raw);
          if (cache.size >= DATE_CACHE_LIMIT) cache.clear();
          cache.set(raw, hit);
        }
        return hit;
      };
    }
    default:
      return slow;
  }
}

/** A coordinate from a cell: the fast decimal test first, lib/ingest's parseNumber rules otherwise. */
export function coordinateReader(
  decimalComma: boolean,
  parseNumber: (text: string, comma: boolean) => number,
) {
  const fast = decimalComma ? DECIMAL_COMMA : DECIMAL;
  return (raw: CellValue): number => {
    if (typeof raw === 'number') return raw;
    if (typeof raw !== 'string') return Number.NaN;
    if (fast.test(raw)) return Number(decimalComma ? raw.replace(',', '.') : raw);
    return parseNumber(raw, decimalComma);
  };
}
