/**
 * Attribute values from an edit checked against the layer's field types, nullability and domains, and
 * turned into values PostgreSQL can take as bound parameters (numbers, text, ISO instants), each with
 * its column type. applyEdits, the layer's add/update operations, calculate and append all take their
 * values through `checkedValue`.
 */
import { type EsriFieldType, FIELD_STORAGE } from '../query/field-types.js';
import { EditFailure, editFailure } from './edit-errors.js';
import { domainBreach, type FieldDomain, fieldDomainOf, readDomainJson } from './field-domains.js';

export interface EditableField {
  name: string;
  type: EsriFieldType;
  column: string;
  length?: number;
  /** System fields (object id, editor tracking) are maintained by the server. */
  editable: boolean;
  /** False: the field must hold a value (absent: nullable). */
  nullable?: boolean;
  domain?: FieldDomain | null;
  /** The value an add that leaves the field out gets (null or absent: none). */
  defaultValue?: unknown;
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
    out.push({ column: field.column, sqlType, value: checkedValue(field, raw) });
  }
  return out;
}

/**
 * What an add leaves out: the default values of fields it does not name, and a failure for a field
 * that must hold a value and has no default (ArcGIS's 1001).
 */
export function defaultColumnValues(
  attributes: Record<string, unknown>,
  fields: readonly EditableField[],
): ColumnValue[] {
  const named = new Set(Object.keys(attributes).map((k) => k.toLowerCase()));
  const out: ColumnValue[] = [];
  for (const field of fields) {
    if (!field.editable || named.has(field.name.toLowerCase())) continue;
    const sqlType = FIELD_STORAGE[field.type].sqlType;
    if (!sqlType) continue;
    const fallback = field.defaultValue ?? null;
    if (fallback === null && field.nullable !== false) continue;
    out.push({ column: field.column, sqlType, value: checkedValue(field, fallback) });
  }
  return out;
}

/** Failures of the value rules, with the codes ArcGIS documents for them. */
const notNullable = (field: EditableField) =>
  new EditFailure(1001, `Field: ${field.name} is not nullable. Cannot set null value.`);
const settingFailed = (field: EditableField, why: string) =>
  new EditFailure(1016, `Setting of value for ${field.name} failed: ${why}.`);

/** The field's value for `raw`: of its type, not null where it must hold a value, within its domain. */
export function checkedValue(field: EditableField, raw: unknown): string | number | null {
  const value = fieldValue(field, raw);
  if (value === null) {
    if (field.nullable === false) throw notNullable(field);
    return null;
  }
  const breach = field.domain ? domainBreach(field.domain, field.type, value) : null;
  if (breach) throw settingFailed(field, breach);
  return value;
}

export function fieldValue(field: EditableField, raw: unknown): string | number | null {
  if (raw === null || raw === undefined) return null;
  const bad = (why: string) => settingFailed(field, why);
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

/**
 * Why a field's domain or default value cannot work for its type (a range over text, a code or a
 * default its type cannot hold, a default outside the domain); null when they can.
 */
export function fieldRulesProblem(field: EditableField): string | null {
  const { domain } = field;
  const kind = FIELD_STORAGE[field.type].kind;
  if (domain?.type === 'range' && kind !== 'number' && kind !== 'timestamp' && kind !== 'date')
    return `A range domain needs a numeric or date field; '${field.name}' is ${field.type}.`;
  const described = (what: string, f: () => unknown): string | null => {
    try {
      f();
      return null;
    } catch (e) {
      if (e instanceof EditFailure) return `${what} of '${field.name}': ${e.error.description}`;
      throw e;
    }
  };
  if (domain?.type === 'codedValue') {
    for (const code of domain.codes) {
      const problem = described('A coded value', () => fieldValue(field, code));
      if (problem) return problem;
    }
  }
  const fallback = field.defaultValue;
  if (fallback === undefined || fallback === null) return null;
  return described('The defaultValue', () => checkedValue({ ...field, nullable: true }, fallback));
}

/**
 * A domain a source or a publisher declares for a field (feature collections, publishParameters):
 * of a stored form and holding only values of the field's type; absent or null is none.
 */
export function declaredDomain(
  raw: unknown,
  field: { name: string; type: EsriFieldType; length?: number },
): { domain: Record<string, unknown> | null } | { problem: string } {
  if (raw === undefined || raw === null) return { domain: null };
  const read = readDomainJson(raw, field.name);
  if ('problem' in read) return read;
  const problem = fieldRulesProblem({
    ...field,
    column: '',
    editable: true,
    domain: fieldDomainOf(read.domain),
  });
  return problem ? { problem } : read;
}
