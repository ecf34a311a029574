import { parseDate, parseDateInZone } from './date-values.js';
import type { CellValue, DateFormat, InferredField } from './field-types.js';
import { parseNumber } from './value-classes.js';

/** A stored attribute value: text, a number, or epoch milliseconds for dates. */
export type AttributeValue = string | number | null;

export type ParsedCell = { ok: true; value: AttributeValue } | { ok: false; reason: string };

export interface ParseOptions {
  /** Read "3,5" as 3.5; set when the file's delimiter is ';'. */
  decimalComma?: boolean;
  /** Time zone of dates written without an offset (IANA or Windows name); UTC when absent. */
  timeZone?: string;
}

type FieldSpec = Pick<InferredField, 'name' | 'type' | 'length' | 'dateFormat'>;

const RANGES: Record<string, [number, number]> = {
  esriFieldTypeSmallInteger: [-32768, 32767],
  esriFieldTypeInteger: [-2147483648, 2147483647],
  esriFieldTypeBigInteger: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

const ok = (value: AttributeValue): ParsedCell => ({ ok: true, value });
const bad = (reason: string): ParsedCell => ({ ok: false, reason });

/** A cell as the value to store in a field, or the reason it cannot be stored there. */
export function parseCellValue(raw: CellValue, field: FieldSpec, options: ParseOptions = {}): ParsedCell {
  if (raw === null || raw === undefined) return ok(null);
  if (typeof raw === 'string' && raw.trim() === '') return ok(null);
  switch (field.type) {
    case 'esriFieldTypeString':
    case 'esriFieldTypeGUID':
    case 'esriFieldTypeGlobalID':
      return parseText(raw, field);
    case 'esriFieldTypeSmallInteger':
    case 'esriFieldTypeInteger':
    case 'esriFieldTypeBigInteger':
      return parseInteger(raw, field, options);
    case 'esriFieldTypeDouble':
    case 'esriFieldTypeSingle':
      return parseReal(raw, field, options);
    case 'esriFieldTypeDate':
      return parseDateCell(raw, field, options);
    default:
      return bad(`Field ${field.name} of type ${field.type} cannot be loaded from a file.`);
  }
}

function parseText(raw: Exclude<CellValue, null | undefined>, field: FieldSpec): ParsedCell {
  const text = raw instanceof Date ? raw.toISOString() : String(raw);
  if (field.length !== undefined && text.length > field.length) {
    return bad(`Value of ${field.name} is ${text.length} characters long; the field holds ${field.length}.`);
  }
  return ok(text);
}

function toNumber(raw: Exclude<CellValue, null | undefined>, options: ParseOptions): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'boolean') return raw ? 1 : 0;
  if (raw instanceof Date) return Number.NaN;
  return parseNumber(raw, options.decimalComma === true);
}

function parseInteger(
  raw: Exclude<CellValue, null | undefined>,
  field: FieldSpec,
  options: ParseOptions,
): ParsedCell {
  const n = toNumber(raw, options);
  if (!Number.isInteger(n)) return bad(`Value '${String(raw)}' of ${field.name} is not an integer.`);
  const [lo, hi] = RANGES[field.type];
  if (n < lo || n > hi) return bad(`Value ${String(raw)} of ${field.name} is outside ${lo}..${hi}.`);
  return ok(n === 0 ? 0 : n);
}

function parseReal(
  raw: Exclude<CellValue, null | undefined>,
  field: FieldSpec,
  options: ParseOptions,
): ParsedCell {
  const n = toNumber(raw, options);
  if (!Number.isFinite(n)) return bad(`Value '${String(raw)}' of ${field.name} is not a number.`);
  return ok(field.type === 'esriFieldTypeSingle' ? Math.fround(n) : n);
}

function parseDateCell(
  raw: Exclude<CellValue, null | undefined>,
  field: FieldSpec,
  options: ParseOptions,
): ParsedCell {
  if (raw instanceof Date)
    return Number.isNaN(raw.getTime()) ? bad(`Invalid date in ${field.name}.`) : ok(raw.getTime());
  // Spreadsheets and JSON hand over epoch milliseconds as numbers.
  if (typeof raw === 'number') return Number.isFinite(raw) ? ok(raw) : bad(`Invalid date in ${field.name}.`);
  if (typeof raw === 'boolean') return bad(`Value '${raw}' of ${field.name} is not a date.`);
  const formats: DateFormat[] = field.dateFormat ? [field.dateFormat] : ['iso', 'ymd', 'mdy', 'dmy'];
  for (const format of formats) {
    const ms = options.timeZone ? parseDateInZone(raw, format, options.timeZone) : parseDate(raw, format);
    if (ms !== null) return ok(ms);
  }
  return bad(
    `Value '${raw}' of ${field.name} is not a date${field.dateFormat ? ` in ${field.dateFormat} order` : ''}.`,
  );
}

export type CoercedRow =
  | { ok: true; attributes: Record<string, AttributeValue> }
  | { ok: false; field: string; reason: string };

/**
 * A record (keyed by original header) or row array as attributes keyed by field name; the first
 * unusable cell makes the whole row bad, with its reason, so the loader can count and report it.
 */
export function coerceRow(
  row: Readonly<Record<string, CellValue>> | readonly CellValue[],
  fields: readonly Pick<
    InferredField,
    'name' | 'type' | 'length' | 'dateFormat' | 'source' | 'sourceIndex'
  >[],
  options: ParseOptions = {},
): CoercedRow {
  const attributes: Record<string, AttributeValue> = {};
  for (const field of fields) {
    const raw = Array.isArray(row)
      ? (row as readonly CellValue[])[field.sourceIndex]
      : (row as Record<string, CellValue>)[field.source];
    const parsed = parseCellValue(raw, field, options);
    if (!parsed.ok) return { ok: false, field: field.name, reason: parsed.reason };
    attributes[field.name] = parsed.value;
  }
  return { ok: true, attributes };
}
