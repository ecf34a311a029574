/**
 * The calculate operation's `calcExpression`: `[{"field": "F", "value": v}]` sets a field to a value,
 * `[{"field": "F", "sqlExpression": "POP * 2"}]` to an expression over the feature's fields, written in
 * the where clause's SQL (same parser, same functions, same type checks). Neither the object id nor
 * editor tracking fields can be set; each field at most once. Compiled here to column assignments
 * whose values are bound parameters or compiled expressions, cast to the column's type.
 */
import { badRequest, GeoError } from '../errors.js';
import type { FieldCatalog } from '../query/field-catalog.js';
import { FIELD_STORAGE } from '../query/field-types.js';
import { fragment, identifier, raw, type SqlFragment, typedParam } from '../query/sql-chunks.js';
import { withArticle } from '../query/where-casts.js';
import { WhereParser } from '../query/where-parser.js';
import { tokenize } from '../query/where-tokenizer.js';
import { ValueCompiler } from '../query/where-values.js';
import { checkedValue, type EditableField, fieldValue } from './attribute-values.js';
import { EditFailure } from './edit-errors.js';
import { domainBreachSql } from './field-domains.js';

/**
 * A rule an expression's results must keep, checked over the updated rows inside the statement's
 * transaction: `when` is true for a row that breaks it, and one such row fails the whole calculate.
 */
export interface ValueRule {
  when: SqlFragment;
  /** What the broken rule is, e.g. "outside the range 0..10 of domain 'Depths'". */
  description: string;
}

export interface Assignment {
  column: string;
  field: string;
  sql: SqlFragment;
  /** A string field's length, checked after the update (an expression's result is known only then). */
  maxLength?: number;
  /** Nullability and domain of the field, for an expression (a value is checked before the update). */
  rules?: ValueRule[];
}

const invalid = (problem: string): GeoError =>
  badRequest('Unable to complete operation.', ["'calcExpression' parameter is invalid", problem]);

function parseExpression(text: string) {
  const parser = new WhereParser(tokenize(text));
  const start = parser.peek();
  if (start.kind === 'end') throw invalid('an sqlExpression is empty');
  const value = parser.asValue(parser.additive(), start);
  const rest = parser.peek();
  if (rest.kind !== 'end') throw invalid(`unexpected text at position ${rest.at + 1} of '${text}'`);
  return value.node;
}

function assignment(entry: unknown, fields: readonly EditableField[], catalog: FieldCatalog): Assignment {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw invalid('each entry must be an object with field and value or sqlExpression');
  const e = entry as Record<string, unknown>;
  for (const key of Object.keys(e))
    if (!['field', 'value', 'sqlExpression'].includes(key))
      throw invalid(`'${key}' is not supported (field, value, sqlExpression)`);
  const name = e.field;
  const field =
    typeof name === 'string' ? fields.find((f) => f.name.toLowerCase() === name.toLowerCase()) : undefined;
  if (!field) throw invalid(`'${String(name)}' is not a field of the layer`);
  if (!field.editable) throw invalid(`'${field.name}' is maintained by the server and cannot be calculated`);
  const hasValue = 'value' in e;
  const hasExpression = 'sqlExpression' in e;
  if (hasValue === hasExpression)
    throw invalid(`'${field.name}' needs exactly one of value and sqlExpression`);
  const sqlType = FIELD_STORAGE[field.type].sqlType;
  if (!sqlType) throw invalid(`'${field.name}' cannot be calculated`);
  const maxLength = field.type === 'esriFieldTypeString' ? field.length : undefined;
  if (hasValue) {
    let value: string | number | null;
    try {
      value = checkedValue(field, e.value);
    } catch (err) {
      if (err instanceof EditFailure) throw invalid(err.error.description);
      throw err;
    }
    return { column: field.column, field: field.name, sql: typedParam(value, sqlType) };
  }
  if (typeof e.sqlExpression !== 'string') throw invalid(`the sqlExpression of '${field.name}' must be text`);
  const target = FIELD_STORAGE[field.type].kind;
  let compiled: ReturnType<ValueCompiler['value']>;
  try {
    compiled = new ValueCompiler(catalog).value(parseExpression(e.sqlExpression), target);
  } catch (err) {
    if (err instanceof GeoError && !(err.toBody().details[0] ?? '').startsWith("'calcExpression'"))
      throw invalid(`the sqlExpression of '${field.name}': ${err.toBody().details.slice(1).join(' ')}`);
    throw err;
  }
  if (compiled.kind !== target && compiled.kind !== 'null')
    throw invalid(
      `the sqlExpression of '${field.name}' gives ${withArticle(compiled.kind)}, the field holds ${withArticle(target)}`,
    );
  const rules = valueRules(field);
  return {
    column: field.column,
    field: field.name,
    sql: fragment('CAST(', compiled.sql, raw(` AS ${sqlType})`)),
    ...(maxLength ? { maxLength } : {}),
    ...(rules.length > 0 ? { rules } : {}),
  };
}

/** The field's nullability and domain as predicates over its column's new values. */
function valueRules(field: EditableField): ValueRule[] {
  const column = identifier(field.column);
  const rules: ValueRule[] = [];
  if (field.nullable === false)
    rules.push({ when: fragment(column, ' is null'), description: 'null, and the field is not nullable' });
  const domain = field.domain;
  if (domain) {
    // Codes the field's type cannot hold can never match a stored value.
    const codes =
      domain.type === 'codedValue'
        ? domain.codes.flatMap((c) => {
            try {
              const v = fieldValue(field, c);
              return v === null ? [] : [v];
            } catch (err) {
              if (err instanceof EditFailure) return [];
              throw err;
            }
          })
        : [];
    rules.push({
      when: domainBreachSql(domain, field.type, column, codes),
      description:
        domain.type === 'codedValue'
          ? `not one of the coded values of domain '${domain.name}'`
          : `outside the range ${domain.min}..${domain.max} of domain '${domain.name}'`,
    });
  }
  return rules;
}

/** The assignments of a calcExpression value, for the layer's editable fields and query catalog. */
export function readCalcExpression(
  raw: string | undefined,
  fields: readonly EditableField[],
  catalog: FieldCatalog,
): Assignment[] {
  if (raw === undefined || raw.trim() === '') throw invalid("'calcExpression' is required");
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid('the value is not valid JSON');
  }
  if (!Array.isArray(value) || value.length === 0) throw invalid('expected a non-empty JSON array');
  const out = value.map((entry) => assignment(entry, fields, catalog));
  const seen = new Set<string>();
  for (const a of out) {
    if (seen.has(a.column)) throw invalid(`'${a.field}' is set twice`);
    seen.add(a.column);
  }
  return out;
}
