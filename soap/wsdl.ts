import type { ElementDef, TypeDef } from './schema/model.js';
import { GEO_NAMESPACE, isPrimitive } from './schema/model.js';
import { SCHEMA, type SchemaRegistry } from './schema/registry.js';
import { escapeAttribute } from './xml-text.js';

/**
 * WSDL 1.1 of the map service, generated from the schema table: one inline schema whose local
 * elements are unqualified (no elementFormDefault), wrapped document/literal messages, one port
 * type, a SOAP 1.1 binding and a service whose address is the endpoint the caller mounted.
 */
export interface WsdlOptions {
  /** The published service's name; the WSDL service is called `<name>_MapServer`. */
  serviceName: string;
  /** Absolute URL clients POST to. */
  endpointUrl: string;
}

export const PORT_TYPE_NAME = 'MapServerPort';
export const BINDING_NAME = 'MapServerBinding';

/** Each operation gets its own action; the dispatcher still routes by the body element. */
export const soapActionOf = (operation: string): string => `${GEO_NAMESPACE}/${operation}`;

const typeRef = (type: string) => (isPrimitive(type) ? `xs:${type}` : `tns:${type}`);

function elementXml(el: ElementDef, indent: string, repeated = false): string {
  const occurs = `${el.optional ? ' minOccurs="0"' : ''}${repeated ? ' maxOccurs="unbounded"' : ''}`;
  const nillable = el.nillable ? ' nillable="true"' : '';
  return `${indent}<xs:element${occurs} name="${el.name}"${nillable} type="${typeRef(el.type)}" />`;
}

function sequenceXml(elements: ElementDef[], indent: string, repeated = false): string {
  if (elements.length === 0) return `${indent}<xs:sequence />`;
  const body = elements.map((el) => elementXml(el, `${indent}  `, repeated)).join('\n');
  return `${indent}<xs:sequence>\n${body}\n${indent}</xs:sequence>`;
}

function typeXml(def: TypeDef): string {
  const i = '      ';
  if (def.kind === 'enum') {
    const values = def.values
      .map((v) => `${i}    <xs:enumeration value="${escapeAttribute(v)}" />`)
      .join('\n');
    return `${i}<xs:simpleType name="${def.name}">\n${i}  <xs:restriction base="xs:string">\n${values}\n${i}  </xs:restriction>\n${i}</xs:simpleType>`;
  }
  if (def.kind === 'array') {
    return `${i}<xs:complexType name="${def.name}">\n${sequenceXml([def.item], `${i}  `, true)}\n${i}</xs:complexType>`;
  }
  const open = `${i}<xs:complexType name="${def.name}"${def.abstract ? ' abstract="true"' : ''}>`;
  if (!def.base) return `${open}\n${sequenceXml(def.fields, `${i}  `)}\n${i}</xs:complexType>`;
  return [
    open,
    `${i}  <xs:complexContent mixed="false">`,
    `${i}    <xs:extension base="tns:${def.base}">`,
    sequenceXml(def.fields, `${i}      `),
    `${i}    </xs:extension>`,
    `${i}  </xs:complexContent>`,
    `${i}</xs:complexType>`,
  ].join('\n');
}

function wrapperXml(name: string, children: ElementDef[]): string {
  const i = '      ';
  if (children.length === 0)
    return `${i}<xs:element name="${name}">\n${i}  <xs:complexType />\n${i}</xs:element>`;
  return `${i}<xs:element name="${name}">\n${i}  <xs:complexType>\n${sequenceXml(children, `${i}    `)}\n${i}  </xs:complexType>\n${i}</xs:element>`;
}

/** The fault detail element (see fault.ts); declared so clients can deserialize it. */
const GEO_ERROR_ELEMENT: ElementDef[] = [
  { name: 'Code', type: 'int', optional: false, nillable: false },
  { name: 'Message', type: 'string', optional: false, nillable: false },
  { name: 'Details', type: 'ArrayOfString', optional: true, nillable: false },
  { name: 'MessageCode', type: 'string', optional: true, nillable: false },
];

function schemaXml(schema: SchemaRegistry): string {
  const ops = [...schema.operations.values()];
  const parts = [
    ...ops.flatMap((op) => [wrapperXml(op.name, op.request), wrapperXml(`${op.name}Response`, op.response)]),
    wrapperXml('GeoError', GEO_ERROR_ELEMENT),
    ...[...schema.types.values()].map(typeXml),
  ];
  return `    <xs:schema targetNamespace="${GEO_NAMESPACE}" xmlns="${GEO_NAMESPACE}">\n${parts.join('\n')}\n    </xs:schema>`;
}

function operationsXml(schema: SchemaRegistry): { messages: string; portType: string; binding: string } {
  const ops = [...schema.operations.keys()];
  const message = (name: string, element: string) =>
    `  <message name="${name}">\n    <part name="parameters" element="tns:${element}" />\n  </message>`;
  const messages = ops
    .flatMap((op) => [message(`${op}In`, op), message(`${op}Out`, `${op}Response`)])
    .join('\n');
  const portOps = ops.map(
    (op) =>
      `    <operation name="${op}">\n      <input message="tns:${op}In" />\n      <output message="tns:${op}Out" />\n    </operation>`,
  );
  const body = '<soap:body use="literal" />';
  const bindingOps = ops.map((op) =>
    [
      `    <operation name="${op}">`,
      `      <soap:operation soapAction="${escapeAttribute(soapActionOf(op))}" style="document" />`,
      `      <input>\n        ${body}\n      </input>`,
      `      <output>\n        ${body}\n      </output>`,
      '    </operation>',
    ].join('\n'),
  );
  return {
    messages,
    portType: `  <portType name="${PORT_TYPE_NAME}">\n${portOps.join('\n')}\n  </portType>`,
    binding: [
      `  <binding name="${BINDING_NAME}" type="tns:${PORT_TYPE_NAME}">`,
      '    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document" />',
      ...bindingOps,
      '  </binding>',
    ].join('\n'),
  };
}

/** Everything but the service element depends only on the table, so it is rendered once per schema. */
const renderedBodies = new WeakMap<SchemaRegistry, string>();

function definitionsBody(schema: SchemaRegistry): string {
  let body = renderedBodies.get(schema);
  if (body === undefined) {
    const { messages, portType, binding } = operationsXml(schema);
    body = [`  <types>\n${schemaXml(schema)}\n  </types>`, messages, portType, binding].join('\n');
    renderedBodies.set(schema, body);
  }
  return body;
}

/** WSDL names are NCNames: published service names with other characters are folded to `_`. */
const ncName = (name: string) => name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^(?=[^A-Za-z_])/, '_');

export function renderWsdl(options: WsdlOptions, schema: SchemaRegistry = SCHEMA): string {
  const service = [
    `  <service name="${ncName(`${options.serviceName}_MapServer`)}">`,
    `    <port name="${PORT_TYPE_NAME}" binding="tns:${BINDING_NAME}">`,
    `      <soap:address location="${escapeAttribute(options.endpointUrl)}" />`,
    '    </port>',
    '  </service>',
  ].join('\n');
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${GEO_NAMESPACE}" targetNamespace="${GEO_NAMESPACE}">`,
    definitionsBody(schema),
    service,
    '</definitions>',
    '',
  ].join('\n');
}
