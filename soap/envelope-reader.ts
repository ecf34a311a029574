import { parseXmlTree, XmlReadError } from '../lib/xml/parse.js';
import { attribute, childElements, childNames, type XmlNode } from '../lib/xml/tree.js';
import { clientFault, SOAP_ENVELOPE_NS, SoapFault } from './fault.js';

/**
 * Reads a SOAP 1.1 envelope defensively: DTDs and entity declarations are refused before any
 * parsing (SOAP forbids them and they are the XXE / entity-expansion vector), size and nesting are
 * capped, then the document is parsed (strictly, xml-parse.ts), and the single operation element of
 * the Body is returned.
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

function parse(raw: string, limits: EnvelopeLimits): Record<string, XmlNode[] | undefined> {
  try {
    return parseXmlTree(raw, limits.maxDepth);
  } catch (error) {
    if (!(error instanceof XmlReadError)) throw error;
    if (error.reason === 'depth') {
      throw clientFault(`The request nests elements deeper than ${limits.maxDepth} levels.`);
    }
    if (!error.position) throw clientFault('The request could not be parsed.', [error.message]);
    const { line, column } = error.position;
    throw clientFault('The request is not well-formed XML.', [
      `${error.message} (line ${line}, column ${column})`,
    ]);
  }
}

export function readEnvelope(raw: string, limits: EnvelopeLimits = DEFAULT_LIMITS): BodyElement {
  if (Buffer.byteLength(raw, 'utf8') > limits.maxBytes) {
    throw clientFault(`The request is larger than ${limits.maxBytes} bytes.`);
  }
  if (/<!DOCTYPE/i.test(raw) || /<!ENTITY/i.test(raw)) {
    throw clientFault('Document type and entity declarations are not allowed in SOAP messages.');
  }
  const document = parse(raw, limits);
  const roots = Object.keys(document);
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
