import { describe, expect, it } from 'vitest';
import { readEnvelope } from '../../../soap/envelope-reader.js';
import type { SoapOperationName } from '../../../soap/operation-names.js';
import { SCHEMA } from '../../../soap/schema/registry.js';
import { decodeElements, decodeRequest } from '../../../soap/xml-decoder.js';
import { encodeElements, encodeResponse } from '../../../soap/xml-encoder.js';
import { sampleFields } from './sample-values.js';

/**
 * For every operation, a request filled from the schema table (every element near the top, every
 * primitive and enum kind, polymorphic elements with their first or last concrete kind) is written by the
 * ordered encoder and read back by the decoder unchanged: the two are driven by the same table.
 * Responses are checked the same way, through the decoder's wrapper-level entry point.
 */
const envelope = (operation: string, children: string) =>
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t"><soap:Body><tns:${operation}>${children}</tns:${operation}></soap:Body></soap:Envelope>`;

describe.each(['first', 'last'] as const)('requests with the %s concrete kind of each base', (kind) => {
  for (const op of SCHEMA.operations.values()) {
    it(`${op.name} reads back exactly what the encoder wrote`, () => {
      const request = sampleFields(op.request, kind);
      const xml = envelope(op.name, encodeElements(op.request, request, op.name));
      expect(decodeRequest(xml)).toEqual({ operation: op.name, request });
    });
  }
});

describe.each(['first', 'last'] as const)('responses with the %s concrete kind of each base', (kind) => {
  for (const op of SCHEMA.operations.values()) {
    it(`${op.name}Response reads back exactly what the encoder wrote`, () => {
      const fields = sampleFields(op.response, kind);
      const single = op.response.length === 1 && op.response[0].name === 'Result';
      const xml = encodeResponse(op.name as SoapOperationName, single ? fields.Result : fields);
      const body = readEnvelope(xml);
      expect(body.name).toBe(`${op.name}Response`);
      expect(decodeElements(op.response, body.node, body.name)).toEqual(fields);
    });
  }
});
