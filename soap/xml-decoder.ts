import {
  attribute,
  childElements,
  childNames,
  isNil,
  localName,
  textOf,
  type XmlNode,
} from '../lib/xml/tree.js';
import { type EnvelopeLimits, readEnvelope } from './envelope-reader.js';
import { clientFault } from './fault.js';
import type { SoapOperationName } from './operation-names.js';
import { decodePrimitive, xsdPrimitive } from './primitive-codec.js';
import type { ElementDef } from './schema/model.js';
import { isPrimitive } from './schema/model.js';
import { SCHEMA, type SchemaRegistry } from './schema/registry.js';

/**
 * Decodes a request envelope into the typed request object of its operation, driven by the schema
 * table: primitives are converted and range-checked, enums validated, `ArrayOf…` wrappers become JS
 * arrays, polymorphic elements are resolved through xsi:type by local name (they get `$type`), and
 * absent optional elements stay undefined. Any problem is a `soap:Client` fault naming the path.
 */
export interface DecodedRequest {
  operation: SoapOperationName;
  request: Record<string, unknown>;
}

export function decodeRequest(
  raw: string,
  limits?: EnvelopeLimits,
  schema: SchemaRegistry = SCHEMA,
): DecodedRequest {
  const body = readEnvelope(raw, limits);
  const op = schema.operations.get(body.name);
  if (!op) throw clientFault(`Unknown operation: ${body.name}.`);
  return {
    operation: op.name as SoapOperationName,
    request: decodeElements(op.request, body.node, op.name, schema),
  };
}

/**
 * Decodes the children of any wrapper element by the given sequence, e.g. a `<NameResponse>` or a
 * cache's conf.xml, which holds the same types. `path` prefixes element paths in fault messages.
 */
export function decodeElements(
  elements: readonly ElementDef[],
  node: XmlNode,
  path: string,
  schema: SchemaRegistry = SCHEMA,
): Record<string, unknown> {
  return new ValueDecoder(schema).fields(elements, node, path);
}

class ValueDecoder {
  constructor(private readonly schema: SchemaRegistry) {}

  fields(elements: readonly ElementDef[], node: XmlNode, path: string): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const el of elements) {
      const value = this.element(el, childElements(node, el.name), `${path}/${el.name}`);
      if (value !== undefined) result[el.name] = value;
    }
    return result;
  }

  private element(el: ElementDef, nodes: XmlNode[], path: string): unknown {
    if (nodes.length === 0) return el.optional ? undefined : this.missing(el, path);
    if (nodes.length > 1) throw clientFault(`Element ${path} may appear only once.`);
    const [node] = nodes;
    if (isNil(node)) {
      if (el.nillable) return null;
      if (el.optional) return undefined;
      throw clientFault(`Element ${path} may not be nil.`);
    }
    return this.value(el.type, node, path);
  }

  /**
   * .NET and Java proxies omit null strings and null arrays even where the schema requires them, so
   * those read as '' and []; a missing number, boolean, enum or structure is an error.
   */
  private missing(el: ElementDef, path: string): unknown {
    if (el.type === 'string') return '';
    if (this.schema.types.get(el.type)?.kind === 'array') return [];
    throw clientFault(`Missing required element ${path}.`);
  }

  private value(type: string, node: XmlNode, path: string): unknown {
    if (isPrimitive(type)) {
      return type === 'anyType' ? this.any(node, path) : decodePrimitive(type, this.text(node, path), path);
    }
    const def = this.schema.types.get(type);
    if (def?.kind === 'enum') {
      const text = this.text(node, path).trim();
      if (!def.values.includes(text))
        throw clientFault(`Invalid ${def.name} value at ${path}: '${text.slice(0, 64)}'.`);
      return text;
    }
    if (def?.kind === 'array') {
      const items = childElements(node, def.item.name);
      return items.map((item, i) => {
        const itemPath = `${path}/${def.item.name}[${i}]`;
        if (isNil(item)) {
          if (def.item.nillable) return null;
          throw clientFault(`Element ${itemPath} may not be nil.`);
        }
        return this.value(def.item.type, item, itemPath);
      });
    }
    return this.complex(type, node, path, false);
  }

  private complex(
    declared: string,
    node: XmlNode,
    path: string,
    alwaysTag: boolean,
  ): Record<string, unknown> {
    const xsiType = attribute(node, 'type');
    const concrete = xsiType === undefined ? declared : localName(xsiType);
    if (!this.schema.isSameOrDerived(concrete, declared)) {
      throw clientFault(`xsi:type ${xsiType} at ${path} is not a ${declared}.`);
    }
    if (this.schema.complex(concrete).abstract) {
      throw clientFault(`Element ${path} needs an xsi:type naming a concrete kind of ${declared}.`);
    }
    const fields = this.fields(this.schema.fieldsOf(concrete), node, path);
    return alwaysTag || this.schema.isPolymorphic(concrete) ? { $type: concrete, ...fields } : fields;
  }

  private any(node: XmlNode, path: string): unknown {
    const xsiType = attribute(node, 'type');
    if (xsiType === undefined) {
      if (childNames(node).length > 0) throw clientFault(`Element ${path} holds structure but no xsi:type.`);
      return textOf(node);
    }
    const name = localName(xsiType);
    const primitive = xsdPrimitive(name);
    if (primitive) return decodePrimitive(primitive, this.text(node, path), path);
    if (this.schema.types.get(name)?.kind !== 'complex')
      throw clientFault(`Unknown xsi:type ${xsiType} at ${path}.`);
    return this.complex(name, node, path, true);
  }

  private text(node: XmlNode, path: string): string {
    if (childNames(node).length > 0) throw clientFault(`Element ${path} must hold text, not elements.`);
    return textOf(node);
  }
}
