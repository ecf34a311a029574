/**
 * One encoder per field, built once per layer, that checks a cell against its field and writes
 * it to the binary COPY row. Plain text cells that are clearly valid (a decimal number, a short
 * string, a date seen before) take a fast path that reads the characters once without allocating;
 * anything else goes through lib/ingest's parseCellValue, which decides and gives the reason, so
 * the result is the same as parsing every cell there, only cheaper on the common case.
 */
import type { PlannedField } from '../../db/schema/publish-request.js';
import {
  type AttributeValue,
  type CellValue,
  type ParseOptions,
  parseCellValue,
} from '../../lib/ingest/index.js';
import { type CopyBinaryWriter, MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS } from './copy-binary.js';

/** Writes the cell and answers null, or answers why the row cannot be stored (writing nothing useful). */
export type CellEncoder = (raw: CellValue, w: CopyBinaryWriter) => string | null;

const DATE_CACHE_LIMIT = 65536;
const MAX_EXACT = 2 ** 53;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * The value of an integer written plainly (`-?[1-9]\d{0,maxDigits-1}` or `0`), NaN for anything
 * else (which the slow path then judges).
 */
export function plainInteger(s: string, maxDigits: number): number {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  const digits = n - i;
  if (digits < 1 || digits > maxDigits) return Number.NaN;
  let c = s.charCodeAt(i);
  if (c === 48) return n === 1 ? 0 : Number.NaN;
  let v = 0;
  for (; i < n; i++) {
    c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return Number.NaN;
    v = v * 10 + c;
  }
  return s.charCodeAt(0) === 45 ? -v : v;
}

/**
 * The value of a plain decimal (`-?(0|[1-9]\d{0,14})([.,]\d{1,17})?`, the mark given), NaN for
 * anything else. Up to 2^53 in digits the value is exact integer / exact power of ten, one
 * correctly rounded division: the same double `Number()` gives, without building a string.
 */
export function plainDecimal(s: string, mark: number): number {
  const n = s.length;
  const neg = s.charCodeAt(0) === 45;
  let i = neg ? 1 : 0;
  if (i >= n) return Number.NaN;
  let m = 0;
  const intStart = i;
  for (; i < n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    m = m * 10 + c;
  }
  const intDigits = i - intStart;
  if (intDigits === 0 || intDigits > 15 || (intDigits > 1 && s.charCodeAt(intStart) === 48)) {
    return Number.NaN;
  }
  let scale = 0;
  if (i < n) {
    if (s.charCodeAt(i) !== mark) return Number.NaN;
    i++;
    const fracStart = i;
    for (; i < n; i++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return Number.NaN;
      m = m * 10 + c;
    }
    scale = i - fracStart;
    if (scale === 0 || scale > 17) return Number.NaN;
  }
  // Past 2^53 the digits are read by Number(), from the text with its sign.
  if (m >= MAX_EXACT) return Number(mark === 46 ? s : s.replace(',', '.'));
  const v = scale === 0 ? m : m / POW10[scale];
  return neg ? -v : v;
}

type ValueWriter = (w: CopyBinaryWriter, v: AttributeValue, field: PlannedField) => string | null;

/** Writes a parsed value in the column's binary form (null for a value that is no value). */
function valueWriter(field: PlannedField): ValueWriter {
  const numeric = (put: (w: CopyBinaryWriter, v: number) => void): ValueWriter => {
    return (w, v) => {
      if (typeof v === 'number' && Number.isFinite(v)) put(w, v);
      else w.null();
      return null;
    };
  };
  switch (field.type) {
    case 'esriFieldTypeSmallInteger':
      return numeric((w, v) => w.int2(v));
    case 'esriFieldTypeInteger':
      return numeric((w, v) => w.int4(v));
    case 'esriFieldTypeBigInteger':
      return numeric((w, v) => w.int8(v));
    case 'esriFieldTypeDouble':
      return numeric((w, v) => w.float8(v));
    case 'esriFieldTypeSingle':
      return numeric((w, v) => w.float4(v));
    case 'esriFieldTypeDate':
      return (w, v, f) => {
        if (typeof v !== 'number') {
          w.null();
          return null;
        }
        if (!(v >= MIN_TIMESTAMP_MS && v <= MAX_TIMESTAMP_MS)) {
          return `Value of ${f.name} is outside the dates that can be stored.`;
        }
        w.timestamptz(v);
        return null;
      };
    default:
      return (w, v, f) => {
        if (v === null) {
          w.null();
          return null;
        }
        const s = String(v);
        if (s.includes('\0')) return `Value of ${f.name} contains a NUL character.`;
        w.text(s);
        return null;
      };
  }
}

function slowPath(field: PlannedField, options: ParseOptions): CellEncoder {
  const write = valueWriter(field);
  return (raw, w) => {
    const parsed = parseCellValue(raw, field, options);
    if (!parsed.ok) return parsed.reason;
    return write(w, parsed.value, field);
  };
}

export function cellEncoder(field: PlannedField, options: ParseOptions): CellEncoder {
  const slow = slowPath(field, options);
  const mark = options.decimalComma ? 44 : 46;
  switch (field.type) {
    case 'esriFieldTypeString':
    case 'esriFieldTypeGUID': {
      const max = field.length ?? Number.POSITIVE_INFINITY;
      return (raw, w) => {
        if (typeof raw !== 'string' || raw.length > max) return slow(raw, w);
        const c = raw.charCodeAt(0);
        // Starts with a visible ASCII character, so it is not all blanks.
        if (c <= 32 || c >= 127 || raw.includes('\0')) return slow(raw, w);
        w.text(raw);
        return null;
      };
    }
    case 'esriFieldTypeInteger':
    case 'esriFieldTypeSmallInteger':
    case 'esriFieldTypeBigInteger': {
      const small = field.type === 'esriFieldTypeSmallInteger';
      const big = field.type === 'esriFieldTypeBigInteger';
      const [lo, hi] = small
        ? [-32768, 32767]
        : big
          ? [-(2 ** 53 - 1), 2 ** 53 - 1]
          : [-(2 ** 31), 2 ** 31 - 1];
      return (raw, w) => {
        // A typed source (SQLite, Excel, GeoJSON) hands over numbers: an integer in range is written as it is.
        const v =
          typeof raw === 'string'
            ? plainInteger(raw, small ? 4 : 9)
            : typeof raw === 'number' && Number.isInteger(raw) && raw >= lo && raw <= hi
              ? raw + 0
              : Number.NaN;
        if (Number.isNaN(v)) return slow(raw, w);
        if (small) w.int2(v);
        else if (big) w.int8(v);
        else w.int4(v);
        return null;
      };
    }
    case 'esriFieldTypeDouble':
    case 'esriFieldTypeSingle': {
      const single = field.type === 'esriFieldTypeSingle';
      return (raw, w) => {
        const v =
          typeof raw === 'string'
            ? plainDecimal(raw, mark)
            : typeof raw === 'number' && Number.isFinite(raw)
              ? raw
              : Number.NaN;
        if (Number.isNaN(v)) return slow(raw, w);
        if (single) w.float4(Math.fround(v));
        else w.float8(v);
        return null;
      };
    }
    case 'esriFieldTypeDate': {
      // Date columns repeat their values (days, months): each distinct text is parsed once.
      const cache = new Map<string, AttributeValue | { reason: string }>();
      const write = valueWriter(field);
      return (raw, w) => {
        if (typeof raw !== 'string') return slow(raw, w);
        let hit = cache.get(raw);
        if (hit === undefined) {
          const parsed = parseCellValue(raw, field, options);
          hit = parsed.ok ? parsed.value : { reason: parsed.reason };
          if (cache.size >= DATE_CACHE_LIMIT) cache.clear();
          cache.set(raw, hit);
        }
        if (hit !== null && typeof hit === 'object') return hit.reason;
        return write(w, hit, field);
      };
    }
    default:
      return slow;
  }
}

/** Like CellEncoder, for a cell of plain ASCII given by its bounds in a buffer. */
export type ByteCellEncoder = (buf: Buffer, start: number, end: number, w: CopyBinaryWriter) => string | null;

/**
 * The byte form of a field's encoder: short text, plain integers and plain decimals are written
 * from the bytes; any other cell becomes the string `encoder` reads, with the same result.
 */
export function byteCellEncoder(
  field: PlannedField,
  options: ParseOptions,
  encoder: CellEncoder,
): ByteCellEncoder {
  const viaString: ByteCellEncoder = (buf, s, e, w) => encoder(buf.toString('latin1', s, e), w);
  const mark = options.decimalComma ? 44 : 46;
  switch (field.type) {
    case 'esriFieldTypeString':
    case 'esriFieldTypeGUID': {
      const max = field.length ?? Number.POSITIVE_INFINITY;
      return (buf, s, e, w) => {
        const c = buf[s];
        // Starts with a visible character (so not all blanks); the line has no NUL and no byte over 0x7f.
        if (e - s > max || c <= 32 || c >= 127) return viaString(buf, s, e, w);
        w.ascii(buf, s, e);
        return null;
      };
    }
    case 'esriFieldTypeInteger':
    case 'esriFieldTypeSmallInteger':
    case 'esriFieldTypeBigInteger': {
      const small = field.type === 'esriFieldTypeSmallInteger';
      const big = field.type === 'esriFieldTypeBigInteger';
      return (buf, s, e, w) => {
        const v = plainIntegerBytes(buf, s, e, small ? 4 : 9);
        if (Number.isNaN(v)) return viaString(buf, s, e, w);
        if (small) w.int2(v);
        else if (big) w.int8(v);
        else w.int4(v);
        return null;
      };
    }
    case 'esriFieldTypeDouble':
    case 'esriFieldTypeSingle': {
      const single = field.type === 'esriFieldTypeSingle';
      return (buf, s, e, w) => {
        const v = plainDecimalBytes(buf, s, e, mark);
        if (Number.isNaN(v)) return viaString(buf, s, e, w);
        if (single) w.float4(Math.fround(v));
        else w.float8(v);
        return null;
      };
    }
    case 'esriFieldTypeDate': {
      // Dates of ten characters (2024-03-02, 03/02/2024) repeat through a file: each distinct one is
      // parsed once, as the string path parses it, and the others are found by their eight digits
      // among the dates of the same shape (where the other two characters stand, and what they are),
      // two small integers, without making a string of them. A file's dates mostly share one shape.
      const shapes = new Map<number, Map<number, AttributeValue | { reason: string }>>();
      let lastShape = -1;
      let seen = new Map<number, AttributeValue | { reason: string }>();
      let size = 0;
      const shapeOut = new Int32Array(1);
      const write = valueWriter(field);
      return (buf, s, e, w) => {
        const digits = e - s === 10 ? tenByteDigits(buf, s, shapeOut) : -1;
        if (digits < 0) return viaString(buf, s, e, w);
        const shape = shapeOut[0];
        if (shape !== lastShape) {
          let known = shapes.get(shape);
          if (known === undefined) {
            known = new Map();
            shapes.set(shape, known);
          }
          seen = known;
          lastShape = shape;
        }
        let hit = seen.get(digits);
        if (hit === undefined) {
          const parsed = parseCellValue(buf.toString('latin1', s, e), field, options);
          hit = parsed.ok ? parsed.value : { reason: parsed.reason };
          if (++size > DATE_CACHE_LIMIT) {
            for (const known of shapes.values()) known.clear();
            size = 1;
          }
          seen.set(digits, hit);
        }
        if (hit !== null && typeof hit === 'object') return hit.reason;
        return write(w, hit, field);
      };
    }
    default:
      return viaString;
  }
}

/**
 * Ten ASCII bytes of exactly eight digits and two other characters: answers the eight digits as a
 * number and sets `shape[0]` to where the other two stand and what they are, so that no other such ten
 * bytes give the same pair; -1 for any other ten bytes. Both are below 2^31 (10^8, and 100 × 128²).
 */
export function tenByteDigits(b: Uint8Array, start: number, shape: Int32Array): number {
  let digits = 0;
  let places = 0;
  let others = 0;
  let count = 0;
  for (let i = 0; i < 10; i++) {
    const c = b[start + i];
    const d = c - 48;
    if (d >= 0 && d <= 9) digits = digits * 10 + d;
    else {
      if (++count > 2 || c >= 128) return -1;
      places = places * 10 + i;
      others = others * 128 + c;
    }
  }
  if (count !== 2) return -1;
  shape[0] = places * 16384 + others;
  return digits;
}

/** plainInteger over the bytes `[start, end)`. */
export function plainIntegerBytes(b: Uint8Array, start: number, end: number, maxDigits: number): number {
  const neg = b[start] === 45;
  let i = neg ? start + 1 : start;
  const digits = end - i;
  if (digits < 1 || digits > maxDigits) return Number.NaN;
  if (b[i] === 48) return end - start === 1 ? 0 : Number.NaN;
  let v = 0;
  for (; i < end; i++) {
    const c = b[i] - 48;
    if (c < 0 || c > 9) return Number.NaN;
    v = v * 10 + c;
  }
  return neg ? -v : v;
}

/** plainDecimal over the bytes `[start, end)`. */
export function plainDecimalBytes(b: Uint8Array, start: number, end: number, mark: number): number {
  const neg = b[start] === 45;
  let i = neg ? start + 1 : start;
  if (i >= end) return Number.NaN;
  let m = 0;
  const intStart = i;
  for (; i < end; i++) {
    const c = b[i] - 48;
    if (c < 0 || c > 9) break;
    m = m * 10 + c;
  }
  const intDigits = i - intStart;
  if (intDigits === 0 || intDigits > 15 || (intDigits > 1 && b[intStart] === 48)) return Number.NaN;
  let scale = 0;
  if (i < end) {
    if (b[i] !== mark) return Number.NaN;
    i++;
    const fracStart = i;
    for (; i < end; i++) {
      const c = b[i] - 48;
      if (c < 0 || c > 9) return Number.NaN;
      m = m * 10 + c;
    }
    scale = i - fracStart;
    if (scale === 0 || scale > 17) return Number.NaN;
  }
  if (m >= MAX_EXACT) return Number.NaN; // the string route reads it with Number()
  const v = scale === 0 ? m : m / POW10[scale];
  return neg ? -v : v;
}

/** A coordinate from a cell: the plain decimal first, lib/ingest's parseNumber rules otherwise. */
export function coordinateReader(
  decimalComma: boolean,
  parseNumber: (text: string, comma: boolean) => number,
) {
  const mark = decimalComma ? 44 : 46;
  return (raw: CellValue): number => {
    if (typeof raw === 'number') return raw;
    if (typeof raw !== 'string') return Number.NaN;
    const v = plainDecimal(raw, mark);
    return Number.isNaN(v) ? parseNumber(raw, decimalComma) : v;
  };
}
