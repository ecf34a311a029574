import { internalError } from '../lib/errors.js';
import { SOAP_ENVELOPE_NS } from './fault.js';
import type { SoapOperationName } from './operation-names.js';
import { type AnyValuePrimitive, isTypedValue } from './schema/any-value.js';
import { type ElementDef, GEO_NAMESPACE, isPrimitive } from './schema/model.js';
import { SCHEMA, type SchemaRegistry } from './schema/registry.js';
import { escapeText, fitsInteger, formatDouble, isIntegerKind } from './xml-text.js';

/**
 * Writes `<NameResponse>` in the envelope the reference shows (soap, xsi, xs and tns declared
 * once), children in schema sequence order, child elements unqualified. Every complex element
 * carries xsi:type, as the real server writes it (abstract declarations cannot be read without it,
 * and clients rely on it for concrete ones too); anyType values carry an xs: or tns: type.
 * A value that does not fit the schema is a bug on our side and becomes a server fault.
 */
export function encodeResponse(
  operation: SoapOperationName,
  response: unknown,
  schema: SchemaRegistry = SCHEMA,
): string {
  const op = schema.operations.get(operation);
  if (!op) throw internalError(`No such operation: ${operation}`);
  const single = op.response.length === 1 && op.response[0].name === 'Result';
  const fields = single ? { Result: response } : (response as Record<string, unknown>);
  const children = encodeElements(op.response, fields, `${operation}Response`, schema);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`,
    ` xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${GEO_NAMESPACE}">`,
    `<soap:Body><tns:${operation}Response>`,
    children,
    `</tns:${operation}Response></soap:Body></soap:Envelope>`,
  ].join('');
}

/**
 * The children of one wrapper element (a `<NameResponse>`, or a request `<Name>`), in sequence
 * order; `wrapper` names the wrapper in error messages.
 */
export function encodeElements(
  elements: readonly ElementDef[],
  values: Record<string, unknown> | undefined,
  wrapper: string,
  schema: SchemaRegistry = SCHEMA,
): string {
  const out: string[] = [];
  const writer = new ValueWriter(schema, out, wrapper);
  for (const el of elements) writer.element(el, values?.[el.name]);
  return out.join('');
}

class ValueWriter {
  /** Element names from the wrapper down, with array positions; joined only to report a misfit. */
  private readonly path: (string | number)[];

  constructor(
    private readonly schema: SchemaRegistry,
    private readonly out: string[],
    root: string,
  ) {
    this.path = [root];
  }

  private misfit(problem: string) {
    const where = this.path.map((p) => (typeof p === 'number' ? `[${p}]` : `/${p}`)).join('');
    return internalError(`Response value at ${where.slice(1)} ${problem}.`);
  }

  /** `index` is the position within an `ArrayOf…` wrapper, reported as `Name[index]`. */
  element(el: ElementDef, value: unknown, index?: number): void {
    const depth = this.path.push(el.name);
    if (index !== undefined) this.path.push(index);
    if (value === undefined || value === null) {
      // Required anyType slots (QueryResult.Object, CodedValue.Code) have no other way to say "none".
      if (el.optional && !(value === null && el.nillable)) {
        // left out
      } else if (el.nillable || el.type === 'anyType') this.out.push(`<${el.name} xsi:nil="true"/>`);
      else throw this.misfit('is missing');
    } else {
      this.value(el.name, el.type, value);
    }
    this.path.length = depth - 1;
  }

  private value(name: string, type: string, value: unknown): void {
    const def = this.schema.types.get(type);
    if (type === 'anyType') {
      this.any(name, value);
    } else if (isPrimitive(type)) {
      this.out.push(`<${name}>${this.primitive(type, value)}</${name}>`);
    } else if (def?.kind === 'enum') {
      if (typeof value !== 'string' || !def.values.includes(value)) throw this.misfit(`is not a ${def.name}`);
      this.out.push(`<${name}>${value}</${name}>`);
    } else if (def?.kind === 'array') {
      if (!Array.isArray(value)) throw this.misfit('is not an array');
      this.out.push(`<${name} xsi:type="tns:${def.name}">`);
      const item = { ...def.item, optional: false };
      value.forEach((v, i) => {
        this.element(item, v, i);
      });
      this.out.push(`</${name}>`);
    } else {
      this.complex(name, type, value);
    }
  }

  private complex(name: string, declared: string, value: unknown): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw this.misfit('is not a structure');
    const record = value as Record<string, unknown>;
    const concrete = typeof record.$type === 'string' ? record.$type : declared;
    if (!this.schema.isSameOrDerived(concrete, declared) || this.schema.complex(concrete).abstract) {
      throw this.misfit(`has no concrete $type for ${declared} (got ${String(record.$type)})`);
    }
    this.out.push(`<${name} xsi:type="tns:${concrete}">`);
    for (const el of this.schema.fieldsOf(concrete)) this.element(el, record[el.name]);
    this.out.push(`</${name}>`);
  }

  private any(name: string, value: unknown): void {
    const plain = plainAnyType(value);
    if (plain) {
      this.out.push(
        `<${name} xsi:type="xs:${plain.xsd}">${this.primitive(plain.xsd, plain.value)}</${name}>`,
      );
      return;
    }
    const $type = (value as { $type?: unknown }).$type;
    if (typeof $type !== 'string' || this.schema.types.get($type)?.kind !== 'complex') {
      throw this.misfit('is an anyType structure without a known $type');
    }
    this.complex(name, $type, value);
  }

  private primitive(type: string, value: unknown): string {
    if (type === 'string') {
      if (typeof value !== 'string') throw this.misfit('is not a string');
      return escapeText(value);
    }
    if (type === 'boolean') {
      if (typeof value !== 'boolean') throw this.misfit('is not a boolean');
      return String(value);
    }
    if (isIntegerKind(type)) {
      if (typeof value !== 'number' || !fitsInteger(value, type)) throw this.misfit(`is not an ${type}`);
      return String(value);
    }
    if (type === 'double' || type === 'float') {
      if (typeof value !== 'number') throw this.misfit('is not a number');
      return formatDouble(value);
    }
    if (type === 'dateTime') {
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw this.misfit('is not a valid Date');
      return value.toISOString();
    }
    if (type === 'base64Binary') {
      if (!(value instanceof Uint8Array)) throw this.misfit('is not a byte array');
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
    }
    throw this.misfit(`has unsupported type ${type}`);
  }
}

/** The XML Schema type a plain anyType value is written as, or undefined for structures. */
function plainAnyType(value: unknown): { xsd: AnyValuePrimitive; value: unknown } | undefined {
  if (isTypedValue(value)) return { xsd: value.$xsd, value: value.value };
  if (typeof value === 'string') return { xsd: 'string', value };
  if (typeof value === 'boolean') return { xsd: 'boolean', value };
  if (typeof value === 'number') return { xsd: fitsInteger(value, 'int') ? 'int' : 'double', value };
  if (value instanceof Date) return { xsd: 'dateTime', value };
  if (value instanceof Uint8Array) return { xsd: 'base64Binary', value };
  return undefined;
}
