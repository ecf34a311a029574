import { afterAll, describe, expect, it } from 'vitest';
import type { SoapOperationName } from '../../../soap/operation-names.js';
import { SCHEMA } from '../../../soap/schema/registry.js';
import { renderWsdl } from '../../../soap/wsdl.js';
import { encodeResponse } from '../../../soap/xml-encoder.js';
import { sampleFields } from './sample-values.js';
import { createSchemaValidator } from './schema-validator.js';

const validator = createSchemaValidator(renderWsdl({ serviceName: 'Sample', endpointUrl: 'http://h/x' }));
afterAll(() => validator.dispose());

const responseOf = (op: string, kind: 'first' | 'last') => {
  const def = SCHEMA.operations.get(op);
  if (!def) throw new Error(op);
  const fields = sampleFields(def.response, kind);
  const single = def.response.length === 1 && def.response[0].name === 'Result';
  return encodeResponse(op as SoapOperationName, single ? fields.Result : fields);
};

describe('every response the encoder writes is valid against the WSDL schema', () => {
  it('rejects a response that lacks a required element, so the check can fail', () => {
    const xml = responseOf('GetTileCacheInfo', 'first').replace(/<TileCols>[^<]*<\/TileCols>/, '');
    expect(validator.errors(xml).join('\n')).toMatch(/TileRows.*Expected is \( TileCols \)/s);
  });

  it('writes a QueryResult without an object (results sent as JSON) as a nil Object the schema allows', () => {
    const xml = encodeResponse('QueryData', { MimeData: new Uint8Array([123, 125]), URL: '', Object: null });
    expect(xml).toContain('<Object xsi:nil="true"/>');
    expect(validator.errors(xml)).toEqual([]);
  });

  it.each([...SCHEMA.operations.keys()])(
    '%s, with every optional element and either end of each type',
    (op) => {
      for (const kind of ['first', 'last'] as const)
        expect(validator.errors(responseOf(op, kind)), kind).toEqual([]);
    },
  );
});
