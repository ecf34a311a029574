/**
 * Coded-value and range domains of a layer's fields, as edits must obey them: a value outside its
 * field's coded values or range fails the edit (code 1016, "Setting of value for <field> failed", the
 * code ArcGIS documents for a value a field does not take). Values are compared in the field's own
 * family: numbers as numbers, dates as instants (a domain's codes and bounds are epoch milliseconds),
 * text as text (a range over a text field takes only numeric text within it). Null is not a domain
 * matter: it follows the field's `nullable`.
 */
import { type EsriFieldType, FIELD_STORAGE } from '../query/field-types.js';
import { fragment, join, type SqlFragment, typedParam } from '../query/sql-chunks.js';

export type FieldDomain =
  | { type: 'codedValue'; name: string; codes: readonly (string | number)[] }
  | { type: 'range'; name: string; min: number; max: number };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The domain of a stored field resource; null when it has none. The publish paths and the admin API
 * store only the two forms read here, each checked when it was stored.
 */
export function fieldDomainOf(raw: unknown): FieldDomain | null {
  if (!isRecord(raw)) return null;
  const name = typeof raw.name === 'string' ? raw.name : '';
  if (raw.type === 'codedValue' && Array.isArray(raw.codedValues)) {
    const codes = raw.codedValues
      .map((v) => (isRecord(v) ? v.code : undefined))
      .filter((c): c is string | number => typeof c === 'string' || typeof c === 'number');
    return { type: 'codedValue', name, codes };
  }
  if (raw.type === 'range' && Array.isArray(raw.range) && raw.range.length === 2) {
    const [min, max] = raw.range.map(Number);
    if (Number.isFinite(min) && Number.isFinite(max)) return { type: 'range', name, min, max };
  }
  return null;
}

/**
 * A domain as a publisher or the admin API gives it, in the form it is stored: `{type: 'codedValue',
 * name, codedValues: [{name, code}]}` or `{type: 'range', name, range: [min, max]}`; null for null.
 * A shape that is neither is a problem, described for the caller's error.
 */
export function readDomainJson(
  raw: unknown,
  field: string,
): { domain: Record<string, unknown> | null } | { problem: string } {
  if (raw === null) return { domain: null };
  if (!isRecord(raw)) return { problem: `The domain of '${field}' must be an object or null.` };
  if (raw.type === 'codedValue') {
    const values = raw.codedValues;
    if (
      !Array.isArray(values) ||
      !values.every(
        (v) =>
          isRecord(v) &&
          typeof v.name === 'string' &&
          (typeof v.code === 'string' || typeof v.code === 'number'),
      )
    )
      return { problem: `The codedValues of '${field}''s domain must be {name, code} objects.` };
    return {
      domain: { type: 'codedValue', name: String(raw.name ?? `${field}_domain`), codedValues: values },
    };
  }
  if (raw.type === 'range') {
    const r = raw.range;
    if (!Array.isArray(r) || r.length !== 2 || !r.every((v) => typeof v === 'number') || r[0] > r[1])
      return { problem: `The range of '${field}''s domain must be [min, max].` };
    return { domain: { type: 'range', name: String(raw.name ?? `${field}_range`), range: r } };
  }
  return { problem: `The domain of '${field}' must be of type codedValue or range.` };
}

/** A value of the field's family: a number, an instant's epoch milliseconds, or text. */
function comparable(type: EsriFieldType, value: string | number): string | number {
  const kind = FIELD_STORAGE[type].kind;
  if (kind === 'number') return Number(value);
  if (kind === 'timestamp')
    return typeof value === 'number' ? value : /^-?\d+$/.test(value) ? Number(value) : Date.parse(value);
  return String(value);
}

/** A range bound or numeric text as a number (NaN when the text is not a number). */
function numeric(type: EsriFieldType, value: string | number): number {
  const kind = FIELD_STORAGE[type].kind;
  if (kind === 'date' && typeof value === 'string') return Date.parse(`${value}T00:00:00Z`);
  const v = comparable(type, value);
  if (typeof v === 'number') return v;
  return /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v) ? Number(v) : Number.NaN;
}

/** Why `value` (already checked against the field's type) is outside the domain; null when inside. */
export function domainBreach(
  domain: FieldDomain,
  type: EsriFieldType,
  value: string | number,
): string | null {
  if (domain.type === 'codedValue') {
    const v = comparable(type, value);
    if (domain.codes.some((c) => comparable(type, c) === v)) return null;
    return `${JSON.stringify(value)} is not one of the coded values of domain '${domain.name}'`;
  }
  const n = numeric(type, value);
  if (n >= domain.min && n <= domain.max) return null;
  return `${JSON.stringify(value)} is outside the range ${domain.min}..${domain.max} of domain '${domain.name}'`;
}

/** A range bound as a parameter of the column's type: instants and days from epoch milliseconds. */
function bound(type: EsriFieldType, ms: number): SqlFragment {
  const kind = FIELD_STORAGE[type].kind;
  if (kind === 'timestamp') return typedParam(new Date(ms).toISOString(), 'timestamptz');
  if (kind === 'date') return typedParam(new Date(ms).toISOString().slice(0, 10), 'date');
  return typedParam(ms, 'double precision');
}

/**
 * The same rule as a predicate over a column holding the field's values: true where a row's value is
 * outside the domain (never for null). `codes` are the domain's codes as the column's values, those
 * that the field's type cannot hold left out by the caller.
 */
export function domainBreachSql(
  domain: FieldDomain,
  type: EsriFieldType,
  column: SqlFragment,
  codes: readonly (string | number)[],
): SqlFragment {
  const kind = FIELD_STORAGE[type].kind;
  const sqlType = FIELD_STORAGE[type].sqlType ?? 'text';
  if (domain.type === 'codedValue') {
    if (codes.length === 0) return fragment('(', column, ' is not null)');
    const list = join(
      codes.map((c) => typedParam(c, sqlType)),
      ', ',
    );
    return fragment('(', column, ' is not null and ', column, ' not in (', list, '))');
  }
  const lo = bound(type, domain.min);
  const hi = bound(type, domain.max);
  if (kind === 'number' || kind === 'timestamp' || kind === 'date')
    return fragment('(', column, ' < ', lo, ' or ', column, ' > ', hi, ')');
  // Text (and times): only numeric text within the bounds; the cast runs only on numeric text.
  return fragment(
    '(case when ',
    column,
    " ~ '^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?\\s*$' then ",
    column,
    '::double precision not between ',
    lo,
    ' and ',
    hi,
    ' else ',
    column,
    ' is not null end)',
  );
}
