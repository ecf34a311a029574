import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { clientFault, SOAP_ENVELOPE_NS, SoapFault } from './fault.js';
import { attribute, childElements, childNames, type XmlNode } from './xml-tree.js';

/**
 * Reads a SOAP 1.1 envelope defensively: DTDs and entity declarations are refused before any
 * parsing (SOAP forbids them and they are the XXE / entity-expansion vector), size and nesting are
 * capped, then the document is validated and parsed, and the single operation element of the
 * Body is returned.
 */
export interface EnvelopeLimits {
  /** Largest request body accepted, in bytes. */
  maxBytes: number;
  /** Deepest element nesting accepted, counting the Envelope as 1. */
  maxDepth: number;
}

export const DEFAULT_LIMITS: EnvelopeLimits = { maxBytes: 8 * 1024 * 1024, maxDepth: 64 };

export interface BodyElement {
  /** Local name of the Body's child, i.e. the operation name for wrapped document/literal. */
  name: string;
  node: XmlNode;
}

const ENVELOPE_TAG = /<(?:([A-Za-z_][\w.-]*):)?Envelope[\s/>][^>]*>?/;

/** The namespace the root Envelope tag binds its own prefix (or the default namespace) to. */
function envelopeNamespace(raw: string): string | undefined {
  const match = ENVELOPE_TAG.exec(raw);
  if (!match) return undefined;
  const declaration = match[1] ? `xmlns:${match[1]}` : 'xmlns';
  const escaped = declaration.replace(/[.]/g, '\\.');
  return new RegExp(`\\s${escaped}\\s*=\\s*(["'])(.*?)\\1`).exec(match[0])?.[2];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
  isArray: (_name, _path, _isLeaf, isAttribute) => !isAttribute,
  // Our own scan enforces the nesting limit; the parser's cap only has to stay out of its way.
  maxNestedTags: 10_000,
  jPath: false,
});

function parse(raw: string): Record<string, XmlNode[] | undefined> {
  try {
    return parser.parse(raw);
  } catch (error) {
    // The parser refuses what the validator lets through, such as reserved names like __proto__.
    throw clientFault('The request could not be parsed.', [
      error instanceof Error ? error.message : String(error),
    ]);
  }
}

/** Nesting depth of the raw document, skipping comments, CDATA, processing instructions and quoted values. */
export function maxNesting(xml: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let i = xml.indexOf('<');
  while (i !== -1 && i < xml.length) {
    const next = xml[i + 1];
    if (xml.startsWith('<!--', i)) i = xml.indexOf('-->', i + 4);
    else if (xml.startsWith('<![CDATA[', i)) i = xml.indexOf(']]>', i + 9);
    else if (next === '?' || next === '!') i = xml.indexOf('>', i);
    else if (next === '/') {
      depth--;
      i = xml.indexOf('>', i);
    } else {
      let j = i + 1;
      let quote: string | undefined;
      for (; j < xml.length; j++) {
        const c = xml[j];
        if (quote) quote = c === quote ? undefined : quote;
        else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (xml[j - 1] !== '/') deepest = Math.max(deepest, ++depth);
      if (deepest > limit) return deepest;
      i = j;
    }
    if (i === -1) break;
    i = xml.indexOf('<', i + 1);
  }
  return deepest;
}

export function readEnvelope(raw: string, limits: EnvelopeLimits = DEFAULT_LIMITS): BodyElement {
  if (Buffer.byteLength(raw, 'utf8') > limits.maxBytes) {
    throw clientFault(`The request is larger than ${limits.maxBytes} bytes.`);
  }
  if (/<!DOCTYPE/i.test(raw) || /<!ENTITY/i.test(raw)) {
    throw clientFault('Document type and entity declarations are not allowed in SOAP messages.');
  }
  if (maxNesting(raw, limits.maxDepth) > limits.maxDepth) {
    throw clientFault(`The request nests elements deeper than ${limits.maxDepth} levels.`);
  }
  const validation = XMLValidator.validate(raw);
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    throw clientFault('The request is not well-formed XML.', [`${msg} (line ${line}, column ${col})`]);
  }
  const document = parse(raw);
  const roots = Object.keys(document).filter((key) => !key.startsWith('?'));
  const [envelope] = document.Envelope ?? [];
  if (roots.length !== 1 || envelope === undefined) throw clientFault('The request is not a SOAP envelope.');
  if (envelopeNamespace(raw) !== SOAP_ENVELOPE_NS) {
    throw new SoapFault('VersionMismatch', {
      code: 400,
      message: `Only SOAP 1.1 envelopes (${SOAP_ENVELOPE_NS}) are supported.`,
      details: [],
    });
  }
  for (const header of childElements(envelope, 'Header')) {
    for (const name of childNames(header)) {
      const blocks = childElements(header, name);
      if (blocks.some((b) => ['1', 'true'].includes(attribute(b, 'mustUnderstand')?.trim() ?? ''))) {
        throw new SoapFault('MustUnderstand', {
          code: 400,
          message: `Header ${name} is not understood.`,
          details: [],
        });
      }
    }
  }
  const bodies = childElements(envelope, 'Body');
  if (bodies.length !== 1) throw clientFault('The SOAP envelope must hold exactly one Body.');
  const names = childNames(bodies[0]);
  const [name] = names;
  if (names.length !== 1 || childElements(bodies[0], name).length !== 1) {
    throw clientFault('The SOAP Body must hold exactly one operation element.');
  }
  return { name, node: childElements(bodies[0], name)[0] };
}
