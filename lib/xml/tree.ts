/**
 * The element tree of an XML document as parse.ts reads it: namespace prefixes removed, every
 * child element in an array, attributes under `@_<local name>`, text under `#text` (or the node is
 * the bare string when an element has neither attributes nor children).
 */
export type XmlNode = string | XmlObject;
export interface XmlObject {
  [key: string]: XmlNode[] | string | undefined;
}

export const isXmlObject = (node: XmlNode): node is XmlObject => typeof node === 'object';

export function attribute(node: XmlNode, localName: string): string | undefined {
  if (!isXmlObject(node)) return undefined;
  const value = node[`@_${localName}`];
  return typeof value === 'string' ? value : undefined;
}

export function childElements(node: XmlNode, name: string): XmlNode[] {
  if (!isXmlObject(node)) return [];
  const value = node[name];
  return Array.isArray(value) ? value : [];
}

/** Local names of the child elements, in no particular order. */
export function childNames(node: XmlNode): string[] {
  if (!isXmlObject(node)) return [];
  return Object.keys(node).filter((key) => key !== '#text' && !key.startsWith('@_'));
}

export function textOf(node: XmlNode): string {
  if (!isXmlObject(node)) return node;
  const text = node['#text'];
  return typeof text === 'string' ? text : '';
}

/** xsi:nil="true" (or "1"). */
export const isNil = (node: XmlNode): boolean => ['true', '1'].includes(attribute(node, 'nil')?.trim() ?? '');

/** The local part of a QName such as `tns:PointN` or `xs:int`; the prefix varies between clients. */
export const localName = (qname: string): string => qname.slice(qname.indexOf(':') + 1).trim();
