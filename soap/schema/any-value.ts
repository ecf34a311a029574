/**
 * How `xs:anyType` slots (record values, property values, QueryResult.Object, Field.DefaultValue…)
 * look in JavaScript. Plain values map to the obvious XML Schema type when encoded: strings to
 * xs:string, booleans to xs:boolean, integral numbers in the int range to xs:int and other numbers
 * to xs:double, Dates to xs:dateTime and byte arrays to xs:base64Binary. A `TypedValue` names the
 * XML Schema type explicitly (a double that happens to be whole, a short, a long). Complex values
 * carry `$type`. `null` is written as xsi:nil.
 */
export const ANY_VALUE_PRIMITIVES = [
  'string',
  'boolean',
  'int',
  'short',
  'long',
  'float',
  'double',
  'unsignedByte',
  'dateTime',
  'base64Binary',
] as const;
export type AnyValuePrimitive = (typeof ANY_VALUE_PRIMITIVES)[number];

export interface TypedValue {
  $xsd: AnyValuePrimitive;
  value: string | number | boolean | Date | Uint8Array;
}

export const isTypedValue = (value: unknown): value is TypedValue =>
  typeof value === 'object' && value !== null && '$xsd' in value && 'value' in value;
