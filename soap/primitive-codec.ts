import { clientFault } from './fault.js';
import { ANY_VALUE_PRIMITIVES, type AnyValuePrimitive } from './schema/any-value.js';
import { fitsInteger, isIntegerKind } from './xml-text.js';

/** Lexical XML Schema values → JavaScript values, with the request path in every error. */
const INTEGER = /^[+-]?\d+$/;
const DOUBLE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Extra XML Schema names accepted inside xsi:type of anyType slots, mapped to the ones we decode. */
const XSD_ALIASES: Record<string, AnyValuePrimitive> = {
  normalizedString: 'string',
  token: 'string',
  anyURI: 'string',
  integer: 'long',
  nonNegativeInteger: 'long',
  unsignedLong: 'long',
  unsignedInt: 'long',
  unsignedShort: 'int',
  byte: 'short',
  decimal: 'double',
  date: 'dateTime',
};

export function xsdPrimitive(name: string): AnyValuePrimitive | undefined {
  return (ANY_VALUE_PRIMITIVES as readonly string[]).includes(name)
    ? (name as AnyValuePrimitive)
    : XSD_ALIASES[name];
}

export function decodePrimitive(
  type: AnyValuePrimitive,
  text: string,
  path: string,
): string | number | boolean | Date | Uint8Array {
  const bad = (what: string) => clientFault(`Invalid ${what} at ${path}: '${text.slice(0, 64)}'.`);
  const trimmed = text.trim();
  if (type === 'string') return text;
  if (type === 'boolean') {
    if (trimmed === 'true' || trimmed === '1') return true;
    if (trimmed === 'false' || trimmed === '0') return false;
    throw bad('boolean');
  }
  if (isIntegerKind(type)) {
    const value = INTEGER.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (!fitsInteger(value, type)) throw bad(type);
    return value;
  }
  if (type === 'double' || type === 'float') {
    if (trimmed === 'INF' || trimmed === '+INF') return Number.POSITIVE_INFINITY;
    if (trimmed === '-INF') return Number.NEGATIVE_INFINITY;
    if (trimmed === 'NaN') return Number.NaN;
    if (!DOUBLE.test(trimmed)) throw bad(type);
    return Number(trimmed);
  }
  if (type === 'dateTime') {
    const time = Date.parse(trimmed);
    if (trimmed === '' || Number.isNaN(time)) throw bad('dateTime');
    return new Date(time);
  }
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) throw bad('base64Binary');
  return Buffer.from(compact, 'base64');
}
