import type { ElementDef, PrimitiveName } from '../../../soap/schema/model.js';
import { isPrimitive } from '../../../soap/schema/model.js';
import { SCHEMA } from '../../../soap/schema/registry.js';

/**
 * Builds a value for any element of the schema table, walking it the way the table describes:
 * every optional element filled near the top, only required ones deeper down (so recursive types
 * such as GroupElement end), the last value of each enum, and the first or the last concrete kind of
 * each polymorphic base, so two passes cover both ends of every hierarchy.
 */
const PRIMITIVE_SAMPLES: Record<PrimitiveName, unknown> = {
  string: 'Fish & <Chips>  ',
  int: -7,
  short: 3,
  long: 9007199254740991,
  double: 0.1 + 0.2,
  float: 0.5,
  unsignedByte: 200,
  boolean: true,
  base64Binary: Buffer.from([0, 1, 254, 255]),
  dateTime: new Date(Date.UTC(2020, 1, 29, 12, 30, 0)),
  anyType: 'any value',
};

const FULL_DEPTH = 3;
const MAX_DEPTH = 12;

export type KindChoice = 'first' | 'last';

export function sampleValue(type: string, kind: KindChoice, depth = 0): unknown {
  if (isPrimitive(type)) return PRIMITIVE_SAMPLES[type];
  const def = SCHEMA.types.get(type);
  if (!def) throw new Error(`unknown type ${type}`);
  if (def.kind === 'enum') return def.values[def.values.length - 1];
  if (def.kind === 'array') {
    if (depth >= FULL_DEPTH) return [];
    const item = sampleValue(def.item.type, kind, depth + 1);
    return def.item.nillable ? [item, null] : [item];
  }
  const kinds = SCHEMA.concreteTypesOf(type);
  // Deep down only the first kinds, whose required elements end (a join source holds two sources).
  const concrete = kind === 'last' && depth < FULL_DEPTH ? kinds[kinds.length - 1] : kinds[0];
  if (depth > MAX_DEPTH) throw new Error(`no finite sample for ${type}`);
  const value: Record<string, unknown> = SCHEMA.isPolymorphic(concrete) ? { $type: concrete } : {};
  for (const el of SCHEMA.fieldsOf(concrete)) {
    if (!el.optional || depth < FULL_DEPTH) value[el.name] = sampleValue(el.type, kind, depth + 1);
  }
  return value;
}

export const sampleFields = (elements: readonly ElementDef[], kind: KindChoice): Record<string, unknown> =>
  Object.fromEntries(elements.map((el) => [el.name, sampleValue(el.type, kind)]));
