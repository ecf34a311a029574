/**
 * Validates SOAP responses against the schema inside our WSDL with libxml2 (compiled to WebAssembly),
 * as a strict toolkit reads them: the `…Response` element of the Body, with the namespaces the envelope
 * declares, must be valid against the WSDL's `xs:schema`.
 */
import { XmlDocument, XsdValidator } from 'libxml2-wasm';

const XS = 'http://www.w3.org/2001/XMLSchema';

export interface SchemaValidator {
  /** The validation errors of the envelope's Body element; empty when it is valid. */
  errors(envelope: string): string[];
  dispose(): void;
}

/** The WSDL's inline schema as a schema document of its own, with the prefixes it uses declared. */
export function schemaOfWsdl(wsdl: string): string {
  const start = wsdl.indexOf('<xs:schema');
  const end = wsdl.indexOf('</xs:schema>');
  if (start < 0 || end < 0) throw new Error('the WSDL has no xs:schema');
  const declared = /<definitions\b[^>]*>/.exec(wsdl)?.[0] ?? '';
  const tns = /xmlns:tns="([^"]+)"/.exec(declared)?.[1];
  if (!tns) throw new Error('the WSDL declares no tns prefix');
  const schema = wsdl.slice(start, end + '</xs:schema>'.length);
  return schema.replace('<xs:schema', `<xs:schema xmlns:xs="${XS}" xmlns:tns="${tns}"`);
}

/** The Body's child element, carrying the namespace declarations of the Envelope and Body tags. */
export function bodyElement(envelope: string): string {
  const root = /<(\w+:)?Envelope\b([^>]*)>/.exec(envelope);
  const body = /<(\w+:)?Body\b([^>]*)>([\s\S]*)<\/(\w+:)?Body>/.exec(envelope);
  if (!root || !body) throw new Error('not a SOAP envelope');
  const declarations = [...`${root[2]} ${body[2]}`.matchAll(/xmlns(?::\w+)?="[^"]*"/g)].map((m) => m[0]);
  const inner = body[3].trim();
  const tagEnd = inner.search(/[\s/>]/);
  const own = /^<[^>]*/.exec(inner)?.[0] ?? '';
  const added = declarations.filter((d) => !own.includes(d.split('=')[0]));
  return `${inner.slice(0, tagEnd)} ${added.join(' ')}${inner.slice(tagEnd)}`;
}

export function createSchemaValidator(wsdl: string): SchemaValidator {
  const schemaDoc = XmlDocument.fromString(schemaOfWsdl(wsdl));
  const validator = XsdValidator.fromDoc(schemaDoc);
  return {
    errors(envelope) {
      const doc = XmlDocument.fromString(bodyElement(envelope));
      try {
        validator.validate(doc);
        return [];
      } catch (e) {
        const details = (e as { details?: { message: string; line?: number }[] }).details;
        return details?.map((d) => d.message.trim()) ?? [String(e)];
      } finally {
        doc.dispose();
      }
    },
    dispose() {
      validator.dispose();
      schemaDoc.dispose();
    },
  };
}
