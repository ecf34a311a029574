import { cleanHeader, type FieldNameOptions, sanitizeFieldNames } from './field-names.js';
import type { CellValue, DateFormat, EsriFieldType, InferredField } from './field-types.js';
import { type ClassifyOptions, classifyValue } from './value-classes.js';

/** Sample data as records keyed by header, or as named columns (parsers produce either). */
export type SampleRows = readonly Record<string, CellValue>[];
export interface SampleColumns {
  names: readonly string[];
  columns: readonly (readonly CellValue[])[];
}

export interface InferOptions extends ClassifyOptions, FieldNameOptions {
  /** Headers in file order; for records they default to the keys of the first record. */
  headers?: readonly string[];
  /** Smallest length given to a string field; analyze reports 256. */
  minStringLength?: number;
  /** Give integers beyond 32 bits esriFieldTypeBigInteger instead of esriFieldTypeDouble. */
  bigInteger?: boolean;
  /**
   * How the source's locale writes a short date: with 'dmy', a column whose values all fit both
   * day- and month-first (03/05/2024) is read day-first. Values that fit one order only decide.
   */
  dateOrder?: 'mdy' | 'dmy' | 'ymd';
}

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

interface ColumnStats {
  integers: number;
  bigIntegers: number;
  unsafeIntegers: number;
  reals: number;
  dates: number;
  texts: number;
  dateFormats: Set<DateFormat> | null;
  maxLength: number;
}

/** Esri fields for sample data: a type per column from all its values, names made valid. */
export function inferFields(sample: SampleRows | SampleColumns, options: InferOptions = {}): InferredField[] {
  const { headers, columns } = toColumns(sample, options.headers);
  const names = sanitizeFieldNames(headers, options);
  return headers.map((header, i) => {
    const stats = columnStats(columns[i] ?? [], options);
    const field: InferredField = {
      name: names[i],
      alias: cleanHeader(header) || names[i],
      type: 'esriFieldTypeString',
      source: header,
      sourceIndex: i,
    };
    const decided = decideType(stats, options);
    field.type = decided.type;
    if (decided.dateFormat) field.dateFormat = decided.dateFormat;
    if (field.type === 'esriFieldTypeString')
      field.length = stringLength(stats.maxLength, options.minStringLength ?? 256);
    return field;
  });
}

function toColumns(sample: SampleRows | SampleColumns, given?: readonly string[]) {
  if (!Array.isArray(sample)) {
    const s = sample as SampleColumns;
    return { headers: s.names, columns: s.columns };
  }
  const rows = sample as SampleRows;
  const headers = given ?? (rows.length > 0 ? Object.keys(rows[0]) : []);
  return { headers, columns: headers.map((h) => rows.map((r) => r[h])) };
}

function columnStats(values: readonly CellValue[], options: ClassifyOptions): ColumnStats {
  const s: ColumnStats = {
    integers: 0,
    bigIntegers: 0,
    unsafeIntegers: 0,
    reals: 0,
    dates: 0,
    texts: 0,
    dateFormats: null,
    maxLength: 0,
  };
  for (const v of values) {
    if (v !== null && v !== undefined) s.maxLength = Math.max(s.maxLength, textLength(v));
    const c = classifyValue(v, options);
    if (c.kind === 'integer') {
      if (!Number.isSafeInteger(c.value)) s.unsafeIntegers++;
      else if (c.value > INT32_MAX || c.value < INT32_MIN) s.bigIntegers++;
      else s.integers++;
    } else if (c.kind === 'real') s.reals++;
    else if (c.kind === 'text') s.texts++;
    else if (c.kind === 'date') {
      s.dates++;
      // A column's formats are those every value fits: 03/05/2024 alone is ambiguous, 25/05/2024 settles it.
      s.dateFormats = new Set(s.dateFormats ? c.formats.filter((f) => s.dateFormats!.has(f)) : c.formats);
    }
  }
  return s;
}

function decideType(s: ColumnStats, options: InferOptions): { type: EsriFieldType; dateFormat?: DateFormat } {
  const numeric = s.integers + s.bigIntegers + s.reals;
  if (s.texts > 0 || s.unsafeIntegers > 0) return { type: 'esriFieldTypeString' };
  if (s.dates > 0) {
    // Dates mixed with numbers, or in formats no one reading fits, stay text.
    if (numeric > 0 || !s.dateFormats || s.dateFormats.size === 0) return { type: 'esriFieldTypeString' };
    const order: DateFormat[] =
      options.dateOrder === 'dmy' ? ['iso', 'ymd', 'dmy', 'mdy'] : ['iso', 'ymd', 'mdy', 'dmy'];
    return { type: 'esriFieldTypeDate', dateFormat: order.find((f) => s.dateFormats!.has(f)) };
  }
  if (s.reals > 0) return { type: 'esriFieldTypeDouble' };
  if (s.bigIntegers > 0)
    return { type: options.bigInteger ? 'esriFieldTypeBigInteger' : 'esriFieldTypeDouble' };
  if (s.integers > 0) return { type: 'esriFieldTypeInteger' };
  return { type: 'esriFieldTypeString' };
}

function textLength(v: Exclude<CellValue, null | undefined>): number {
  if (typeof v === 'string') return v.length;
  if (v instanceof Date) return 24;
  return String(v).length;
}

/** The stored length: at least the minimum, otherwise the next power of two above the longest value. */
export function stringLength(maxLength: number, minimum = 256): number {
  if (maxLength <= minimum) return minimum;
  return 2 ** Math.ceil(Math.log2(maxLength));
}
