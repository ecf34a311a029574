/**
 * The element tree (tree.ts) of an XML document someone sent: SOAP messages and tile packages' conf.xml.
 * Read by saxes, a strict XML 1.0 parser that checks well-formedness as it goes (names, attributes,
 * references, one root) in time linear in the document. fast-xml-parser, which read SOAP messages
 * before, built each text and name a character at a time: an 8 MB message took it 6–10 s of the event
 * loop, and its validator a second pass on top.
 *
 * The tree: namespace prefixes removed from element and attribute names, `xmlns` declarations
 * dropped, every child element in an array under its local name, attributes under `@_<local name>`,
 * text and CDATA joined under `#text` (comments and processing instructions left out), and an element
 * with neither attributes nor children given as its bare text. Character and the five predefined
 * entity references are decoded; any other reference is not well-formed here, since a DOCTYPE is passed
 * over unread (its entity declarations, internal or external, declare nothing). `__proto__` is refused as a name, so no name can reach an object's prototype.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { XmlNode, XmlObject } from './tree.js';

/**
 * Why a message is not read: not well-formed XML (`position` says where), a reserved name, or
 * elements nested deeper than the limit.
 */
export class XmlReadError extends Error {
  constructor(
    message: string,
    readonly reason: 'malformed' | 'reserved' | 'depth',
    readonly position?: { line: number; column: number },
  ) {
    super(message);
  }
}

/** An open element; frames are reused as elements open and close. */
interface Frame {
  name: string;
  /** Made on the element's first attribute or child; until then the element is its bare text. */
  node: XmlObject | undefined;
  text: string;
}

const local = (qname: string): string => qname.slice(qname.indexOf(':') + 1);

function checkName(name: string): string {
  if (name === '__proto__') throw new XmlReadError(`The name ${name} is reserved.`, 'reserved');
  return name;
}

/**
 * The root element under its local name, as `{ [name]: [node] }`. Refuses, as soon as it is opened,
 * an element nested deeper than `maxDepth` (the root is at depth 1).
 */
export function parseXmlTree(xml: string, maxDepth = Number.POSITIVE_INFINITY): Record<string, XmlNode[]> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const root: XmlObject = {};
  const frames: Frame[] = [{ name: '', node: root, text: '' }];
  let depth = 0;
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (depth >= maxDepth) {
      throw new XmlReadError(`Elements are nested deeper than ${maxDepth} levels.`, 'depth');
    }
    const parent = frames[depth];
    parent.node ??= {};
    depth++;
    let frame = frames[depth];
    if (!frame) {
      frame = { name: '', node: undefined, text: '' };
      frames.push(frame);
    }
    frame.name = checkName(local(tag.name));
    frame.node = undefined;
    frame.text = '';
    const attributes = tag.attributes;
    for (const qname in attributes) {
      if (qname === 'xmlns' || qname.startsWith('xmlns:')) continue;
      frame.node ??= {};
      frame.node[`@_${checkName(local(qname))}`] = attributes[qname];
    }
  });
  const addText = (text: string) => {
    if (depth > 0) frames[depth].text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const frame = frames[depth];
    let value: XmlNode = frame.text;
    if (frame.node) {
      if (frame.text !== '') frame.node['#text'] = frame.text;
      value = frame.node;
    }
    depth--;
    const parent = frames[depth].node as XmlObject;
    const siblings = parent[frame.name];
    if (Array.isArray(siblings)) siblings.push(value);
    else parent[frame.name] = [value];
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof XmlReadError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // saxes says "<line>:<column>: <what>"; the position is given apart.
    const what = /^\d+:\d+: (.*)$/s.exec(message)?.[1] ?? message;
    throw new XmlReadError(what, 'malformed', { line: parser.line, column: parser.column });
  }
  return root as Record<string, XmlNode[]>;
}
