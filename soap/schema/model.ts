/**
 * The shape of the schema table that drives the WSDL, the XML decoder and the ordered encoder.
 * Element specs are written as short strings so each type reads as one line of the WSDL sequence:
 * `'Name Type'` (required), `'Name? Type'` (minOccurs 0), `'Name?! Type'` (minOccurs 0, nillable).
 * Lower-case type names are XML Schema primitives; capitalised names refer to table entries.
 */

/** Our own target namespace; the version of the message schema is part of it. */
export const SCHEMA_VERSION = '3.5.0';
export const GEO_NAMESPACE = `http://www.geoportal.dev/schemas/GeoServer/${SCHEMA_VERSION}`;

export const PRIMITIVES = [
  'string',
  'int',
  'short',
  'long',
  'double',
  'float',
  'boolean',
  'unsignedByte',
  'base64Binary',
  'dateTime',
  'anyType',
] as const;
export type PrimitiveName = (typeof PRIMITIVES)[number];

export const isPrimitive = (type: string): type is PrimitiveName =>
  (PRIMITIVES as readonly string[]).includes(type);

export interface ElementDef {
  name: string;
  /** A primitive name or the name of a complex, array or enum type of the table. */
  type: string;
  optional: boolean;
  nillable: boolean;
}

export interface ComplexTypeDef {
  kind: 'complex';
  name: string;
  base?: string;
  abstract: boolean;
  /** Own elements only, in sequence order; inherited ones come first on the wire. */
  fields: ElementDef[];
}

/** An `ArrayOf<T>` wrapper: zero or more repeats of one item element. Decoded as a JS array. */
export interface ArrayTypeDef {
  kind: 'array';
  name: string;
  item: ElementDef;
}

export interface EnumTypeDef {
  kind: 'enum';
  name: string;
  values: string[];
}

export type TypeDef = ComplexTypeDef | ArrayTypeDef | EnumTypeDef;

export interface OperationDef {
  name: string;
  request: ElementDef[];
  /** Children of `<NameResponse>`: a single `Result` for every operation except FromMapPoints. */
  response: ElementDef[];
}

const ELEMENT_SPEC = /^([A-Za-z][A-Za-z0-9]*)(\?)?(!)?\s+([A-Za-z][A-Za-z0-9]*)$/;

export function element(spec: string): ElementDef {
  const match = ELEMENT_SPEC.exec(spec.trim());
  if (!match) throw new Error(`Bad element spec: ${spec}`);
  const [, name, optional, nillable, type] = match;
  return { name, type, optional: optional === '?', nillable: nillable === '!' };
}

export function complex(
  name: string,
  fields: string[],
  options: { base?: string; abstract?: boolean } = {},
): ComplexTypeDef {
  return {
    kind: 'complex',
    name,
    base: options.base,
    abstract: options.abstract ?? false,
    fields: fields.map(element),
  };
}

/** `arrayOf('ArrayOfInt', 'Int int')`; a `!` after the item name marks nillable items. */
export function arrayOf(name: string, itemSpec: string): ArrayTypeDef {
  return { kind: 'array', name, item: { ...element(itemSpec), optional: true } };
}

/** `enumeration('geoUnits', 'geo', ['Inches', ...])` spells each value with the shared prefix. */
export function enumeration(name: string, prefix: string, suffixes: string[]): EnumTypeDef {
  return { kind: 'enum', name, values: suffixes.map((suffix) => prefix + suffix) };
}

export function operation(name: string, request: string[], result: string | string[]): OperationDef {
  const response = typeof result === 'string' ? [`Result ${result}`] : result;
  return { name, request: request.map(element), response: response.map(element) };
}
