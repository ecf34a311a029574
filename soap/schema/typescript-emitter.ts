import type { ElementDef, OperationDef, PrimitiveName, TypeDef } from './model.js';
import type { SchemaRegistry } from './registry.js';

/**
 * Renders the TypeScript types of the schema table (requests, results, every complex type) so
 * handlers are checked against the same table the wire codec uses. The output is committed as
 * generated-types.ts and a unit test fails when it drifts from the table.
 */
const LINE_WIDTH = 110;

const PRIMITIVE_TS: Record<PrimitiveName, string> = {
  string: 'string',
  int: 'number',
  short: 'number',
  long: 'number',
  double: 'number',
  float: 'number',
  unsignedByte: 'number',
  boolean: 'boolean',
  base64Binary: 'Uint8Array',
  dateTime: 'Date',
  anyType: 'AnyValue',
};

/** `export type X = A | B;` on one line when it fits, else one member per line (the formatter's layout). */
function unionAlias(name: string, members: string[]): string {
  const single = `export type ${name} = ${members.join(' | ')};`;
  if (single.length <= LINE_WIDTH) return single;
  return `export type ${name} =\n${members.map((m) => `  | ${m}`).join('\n')};`;
}

function interfaceBlock(name: string, members: string[]): string {
  if (members.length === 0) return `export type ${name} = { [field: string]: never };`;
  return `export interface ${name} {\n${members.map((m) => `  ${m}`).join('\n')}\n}`;
}

export function renderTypeScript(schema: SchemaRegistry): string {
  const ref = (type: string): string => {
    if (type in PRIMITIVE_TS) return PRIMITIVE_TS[type as PrimitiveName];
    const def = schema.types.get(type) as TypeDef;
    if (def.kind === 'array') {
      const item = ref(def.item.type);
      return def.item.nillable ? `(${item} | null)[]` : /[ |]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    if (def.kind === 'complex' && !def.abstract && schema.concreteTypesOf(type).length > 1)
      return `Any${type}`;
    return type;
  };
  const member = (el: ElementDef): string => {
    const type = ref(el.type);
    const nullable = el.nillable && !el.optional && type !== 'AnyValue' ? `${type} | null` : type;
    return `${el.name}${el.optional ? '?' : ''}: ${nullable};`;
  };
  const tagged = (name: string) => `Tagged<${name}>`;

  const blocks: string[] = [];
  for (const def of schema.types.values()) {
    if (def.kind === 'enum')
      blocks.push(
        unionAlias(
          def.name,
          def.values.map((v) => `'${v}'`),
        ),
      );
    if (def.kind !== 'complex') continue;
    const concrete = schema.concreteTypesOf(def.name);
    if (def.abstract) {
      blocks.push(unionAlias(def.name, concrete.map(tagged)));
      continue;
    }
    const tag = schema.isPolymorphic(def.name) ? [`$type?: '${def.name}';`] : [];
    blocks.push(interfaceBlock(def.name, [...tag, ...schema.fieldsOf(def.name).map(member)]));
    if (concrete.length > 1)
      blocks.push(unionAlias(`Any${def.name}`, [def.name, ...concrete.slice(1).map(tagged)]));
  }

  const concreteAll = [...schema.types.values()].filter((d) => d.kind === 'complex' && !d.abstract);
  blocks.push(
    unionAlias(
      'AnyComplexValue',
      concreteAll.map((d) => `(${d.name} & { $type: '${d.name}' })`),
    ),
  );
  blocks.push(
    unionAlias('AnyValue', [
      'null',
      'string',
      'number',
      'boolean',
      'Date',
      'Uint8Array',
      'TypedValue',
      'AnyComplexValue',
    ]),
  );

  const ops = [...schema.operations.values()];
  const responseType = (op: OperationDef): string => {
    const [only] = op.response;
    return op.response.length === 1 && only.name === 'Result' ? ref(only.type) : `${op.name}Response`;
  };
  for (const op of ops) {
    blocks.push(interfaceBlock(`${op.name}Request`, op.request.map(member)));
    if (responseType(op) === `${op.name}Response`)
      blocks.push(interfaceBlock(`${op.name}Response`, op.response.map(member)));
  }
  const opEntries = ops.flatMap((op) => [
    `  ${op.name}: {`,
    `    request: ${op.name}Request;`,
    `    response: ${responseType(op)};`,
    '  };',
  ]);
  blocks.push(`export interface SoapOperationTypes {\n${opEntries.join('\n')}\n}`);

  return [
    '// Generated from the schema table by soap/schema/write-types.ts; do not edit by hand.',
    "import type { TypedValue } from './any-value.js';",
    '',
    '/** A polymorphic value whose concrete type is named by `$type` (written as xsi:type). */',
    "export type Tagged<T extends { $type?: string }> = T & { $type: NonNullable<T['$type']> };",
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}
