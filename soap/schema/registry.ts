import { ENUMS } from './enums.js';
import {
  type ComplexTypeDef,
  type ElementDef,
  isPrimitive,
  type OperationDef,
  type TypeDef,
} from './model.js';
import { OPERATIONS } from './operations.js';
import { CACHE_TYPES } from './types-cache.js';
import { GEOMETRY_TYPES } from './types-geometry.js';
import { LAYOUT_TYPES } from './types-layout.js';
import { MAP_TYPES } from './types-map.js';
import { QUERY_TYPES } from './types-query.js';
import { RENDERER_TYPES } from './types-renderers.js';
import { RESULT_TYPES } from './types-results.js';
import { SYMBOL_TYPES } from './types-symbols.js';

/** The resolved schema: every lookup the WSDL writer, decoder and encoder need, computed once. */
export interface SchemaRegistry {
  types: ReadonlyMap<string, TypeDef>;
  operations: ReadonlyMap<string, OperationDef>;
  /** Inherited elements first, then the type's own, in wire order. */
  fieldsOf(complexName: string): readonly ElementDef[];
  /** Concrete types that may appear where `name` is declared (itself when concrete, then descendants). */
  concreteTypesOf(name: string): readonly string[];
  /** True when `name` takes part in xsi:type polymorphism (abstract, derived, or a base of others). */
  isPolymorphic(name: string): boolean;
  isSameOrDerived(candidate: string, declared: string): boolean;
  complex(name: string): ComplexTypeDef;
}

export function buildSchema(typeDefs: TypeDef[], operationDefs: OperationDef[]): SchemaRegistry {
  const types = new Map<string, TypeDef>();
  for (const def of typeDefs) {
    if (types.has(def.name)) throw new Error(`Type ${def.name} is declared twice`);
    types.set(def.name, def);
  }
  const operations = new Map(operationDefs.map((def) => [def.name, def]));
  if (operations.size !== operationDefs.length) throw new Error('An operation is declared twice');

  const checkRef = (owner: string, el: ElementDef) => {
    if (!isPrimitive(el.type) && !types.has(el.type))
      throw new Error(`${owner}.${el.name}: unknown type ${el.type}`);
  };
  const children = new Map<string, string[]>();
  for (const def of types.values()) {
    if (def.kind === 'array') checkRef(def.name, def.item);
    if (def.kind !== 'complex') continue;
    for (const field of def.fields) checkRef(def.name, field);
    if (def.base) {
      if (types.get(def.base)?.kind !== 'complex')
        throw new Error(`${def.name}: base ${def.base} is not complex`);
      children.set(def.base, [...(children.get(def.base) ?? []), def.name]);
    }
  }
  for (const op of operations.values())
    for (const el of [...op.request, ...op.response]) checkRef(op.name, el);

  const complex = (name: string): ComplexTypeDef => {
    const def = types.get(name);
    if (def?.kind !== 'complex') throw new Error(`${name} is not a complex type`);
    return def;
  };
  const ancestry = (name: string): ComplexTypeDef[] => {
    const chain: ComplexTypeDef[] = [];
    for (
      let def: ComplexTypeDef | undefined = complex(name);
      def;
      def = def.base ? complex(def.base) : undefined
    ) {
      if (chain.includes(def)) throw new Error(`${name}: inheritance cycle`);
      chain.unshift(def);
    }
    return chain;
  };

  const collectConcrete = (name: string): string[] => [
    ...(complex(name).abstract ? [] : [name]),
    ...(children.get(name) ?? []).flatMap(collectConcrete),
  ];

  const fieldCache = new Map<string, ElementDef[]>();
  const concreteCache = new Map<string, string[]>();
  const ancestorCache = new Map<string, Set<string>>();
  for (const def of types.values()) {
    if (def.kind !== 'complex') continue;
    const chain = ancestry(def.name);
    fieldCache.set(
      def.name,
      chain.flatMap((t) => t.fields),
    );
    ancestorCache.set(def.name, new Set(chain.map((t) => t.name)));
    concreteCache.set(def.name, collectConcrete(def.name));
  }

  return {
    types,
    operations,
    complex,
    fieldsOf: (name) => fieldCache.get(name) ?? complex(name).fields,
    concreteTypesOf: (name) => concreteCache.get(name) ?? [],
    isPolymorphic: (name) => {
      const def = types.get(name);
      return def?.kind === 'complex' && (def.abstract || def.base !== undefined || children.has(name));
    },
    isSameOrDerived: (candidate, declared) => ancestorCache.get(candidate)?.has(declared) ?? false,
  };
}

export const ALL_TYPES: TypeDef[] = [
  ...ENUMS,
  ...GEOMETRY_TYPES,
  ...MAP_TYPES,
  ...RESULT_TYPES,
  ...LAYOUT_TYPES,
  ...SYMBOL_TYPES,
  ...RENDERER_TYPES,
  ...QUERY_TYPES,
  ...CACHE_TYPES,
];

export const SCHEMA: SchemaRegistry = buildSchema(ALL_TYPES, OPERATIONS);
