/**
 * Attribute values from an edit checked against the layer's field types and turned into values
 * PostgreSQL can take as bound parameters (numbers, text, ISO instants), each with its column type.
 */
import { type EsriFieldType, FIELD_STORAGE } from '../query/field-types.js';
import { editFailure } from './edit-errors.js';

export interface EditableField {
  name: string;
  type: EsriFieldType;
  column: string;
  length?: number;
  /** System fields (object id, editor tracking) are maintained by the server. */
  editable: boolean;
}

export interface ColumnValue {
  column: string;
  /** PostgreSQL type to cast the bound text to. */
  sqlType: string;
  value: string | number | null;
}

const INTEGER_RANGE: Partial<Record<EsriFieldType, [number, number]>> = {
  esriFieldTypeSmallInteger: [-32768, 32767],
  esriFieldTypeInteger: [-2147483648, 2147483647],
  esriFieldTypeBigInteger: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/**
 * The column values of `attributes`. The object id and non-editable fields are skipped (clients send
 * them back as they read them); a name the layer does not have, or a value its field cannot hold,
 * fails the edit.
 */
export function columnValues(
  attributes: Record<string, unknown>,
  fields: readonly EditableField[],
  objectIdField: string,
): ColumnValue[] {
  const byName = new Map(fields.map((f) => [f.name.toLowerCase(), f]));
  const out: ColumnValue[] = [];
  for (const [name, raw] of Object.entries(attributes)) {
    if (name.toLowerCase() === objectIdField.toLowerCase()) continue;
    const field = byName.get(name.toLowerCase());
    if (!field) throw editFailure(`Field '${name}' does not exist in this layer.`);
    if (!field.editable) continue;
    const sqlType = FIELD_STORAGE[field.type].sqlType;
    if (!sqlType) continue;
    out.push({ column: field.column, sqlType, value: fieldValue(field, raw) });
  }
  return out;
}

export function fieldValue(field: EditableField, raw: unknown): string | number | null {
  if (raw === null || raw === undefined) return null;
  const bad = (why: string) => editFailure(`Setting of value for ${field.name} failed: ${why}.`);
  switch (field.type) {
    case 'esriFieldTypeString':
    case 'esriFieldTypeGUID':
    case 'esriFieldTypeGlobalID': {
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean')
        throw bad(`${JSON.stringify(raw)} is not text`);
      const text = String(raw);
      if (field.length && [...text].length > field.length)
        throw bad(`the text is longer than the field's length of ${field.length}`);
      return text;
    }
    case 'esriFieldTypeSmallInteger':
    case 'esriFieldTypeInteger':
    case 'esriFieldTypeBigInteger': {
      const n = numberOf(raw);
      const [min, max] = INTEGER_RANGE[field.type] ?? [0, 0];
      if (n === null || !Number.isInteger(n)) throw bad(`${JSON.stringify(raw)} is not an integer`);
      if (n < min || n > max) throw bad(`${n} is outside ${min}..${max}`);
      return n;
    }
    case 'esriFieldTypeDouble':
    case 'esriFieldTypeSingle': {
      const n = numberOf(raw);
      if (n === null) throw bad(`${JSON.stringify(raw)} is not a number`);
      return n;
    }
    case 'esriFieldTypeDate':
    case 'esriFieldTypeTimestampOffset':
      return instantOf(raw, bad);
    case 'esriFieldTypeDateOnly':
      if (typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(raw) && !Number.isNaN(Date.parse(raw)))
        return raw;
      throw bad(`${JSON.stringify(raw)} is not a date written yyyy-mm-dd`);
    case 'esriFieldTypeTimeOnly':
      if (typeof raw === 'string' && /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?$/.test(raw)) return raw;
      throw bad(`${JSON.stringify(raw)} is not a time written hh:mm:ss`);
    default:
      throw bad(`fields of type ${field.type} cannot be edited`);
  }
}

function numberOf(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const n = Number(raw);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Dates travel as epoch milliseconds; an ISO 8601 string with its offset is taken too. */
function instantOf(raw: unknown, bad: (why: string) => Error): string {
  let ms: number | null = null;
  if (typeof raw === 'number') ms = raw;
  else if (typeof raw === 'string' && /^-?\d+$/.test(raw.trim())) ms = Number(raw);
  else if (typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}/.test(raw)) ms = Date.parse(raw);
  if (ms === null || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    throw bad(`${JSON.stringify(raw)} is not a date (epoch milliseconds)`);
  return new Date(ms).toISOString();
}
