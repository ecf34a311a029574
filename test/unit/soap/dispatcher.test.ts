import { describe, expect, it } from 'vitest';
import { createSoapService, operationOfSoapAction } from '../../../soap/dispatcher.js';
import type { SoapOperationName } from '../../../soap/operation-names.js';
import { SCHEMA } from '../../../soap/schema/registry.js';
import type { SoapHandlers } from '../../../soap/service-types.js';
import { soapActionOf } from '../../../soap/wsdl.js';
import { encodeResponse } from '../../../soap/xml-encoder.js';
import { FIXED_HANDLERS } from './fixed-handlers.js';
import { readFixture } from './fixtures.js';

const target = { serviceName: 'World', endpointUrl: 'http://localhost/geo/services/Hosted/World/MapServer' };
const service = createSoapService(FIXED_HANDLERS);
const call = (body: string, soapAction?: string) => service.handle({ ...target, body, soapAction });
const getMapName = (index: number) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><GetMapName xmlns="urn:x"><Index>${index}</Index></GetMapName></s:Body></s:Envelope>`;

describe('the SOAP dispatcher', () => {
  it('answers a request with 200, text/xml and the encoded result', async () => {
    const response = await call(readFixture('requests/get-map-tile.xml'), `"${soapActionOf('GetMapTile')}"`);
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('text/xml; charset=utf-8');
    expect(response.body).toContain('<Result>iVBORw0KGgo=</Result>');
  });

  it('passes the decoded request to the handler', async () => {
    const response = await call(readFixture('requests/query-feature-count-spatial.xml'));
    expect(response.body).toContain('<Result>3</Result>');
  });

  it('hands the service name, endpoint and locals to the handler', async () => {
    const seen: unknown[] = [];
    const withLocals = createSoapService<{ user: string }>({
      ...(FIXED_HANDLERS as unknown as SoapHandlers<{ user: string }>),
      GetMapCount: async (_request, ctx) => {
        seen.push(ctx);
        return 1;
      },
    });
    const body = getMapName(0).replaceAll('GetMapName', 'GetMapCount').replace('<Index>0</Index>', '');
    await withLocals.handle({ ...target, body, locals: { user: 'ada' } });
    expect(seen).toEqual([{ operation: 'GetMapCount', ...target, locals: { user: 'ada' } }]);
  });

  it('accepts an empty SOAPAction as clients of the real server send it', async () => {
    expect((await call(getMapName(0), '""')).status).toBe(200);
  });

  it('refuses a SOAPAction that names another operation than the body', async () => {
    const response = await call(getMapName(0), soapActionOf('GetMapCount'));
    expect(response.status).toBe(500);
    expect(response.body).toContain('SOAPAction names GetMapCount but the body holds GetMapName.');
  });

  it('turns a GeoError thrown by a handler into a soap:Client fault with status 500', async () => {
    const response = await call(getMapName(99));
    expect(response.status).toBe(500);
    expect(response.body).toContain('<faultcode>soap:Client</faultcode>');
    expect(response.body).toContain('<faultstring>Invalid map index: 99</faultstring>');
  });

  it('answers an unknown operation with a fault', async () => {
    const response = await call(readFixture('hostile/unknown-operation.xml'));
    expect(response.status).toBe(500);
    expect(response.body).toContain('Unknown operation: DeleteEverything.');
  });

  it('answers an XXE payload with a fault and never resolves the entity', async () => {
    const response = await call(readFixture('hostile/xxe-doctype.xml'));
    expect(response.status).toBe(500);
    expect(response.body).toContain('<faultcode>soap:Client</faultcode>');
    expect(response.body).not.toContain('root:');
  });

  it('reports server-side faults to the logger, not client faults', async () => {
    const logged: string[] = [];
    const failing = createSoapService(
      { ...FIXED_HANDLERS, GetMapCount: async () => Promise.reject(new Error('disk on fire')) },
      {
        onServerFault: (fault, cause, operation) =>
          logged.push(`${operation} ${fault.faultCode}: ${(cause as Error).message}`),
      },
    );
    const body = getMapName(0).replaceAll('GetMapName', 'GetMapCount').replace('<Index>0</Index>', '');
    const response = await failing.handle({ ...target, body });
    await failing.handle({ ...target, body: getMapName(99) });
    expect(response.body).toContain('<faultcode>soap:Server</faultcode>');
    expect(response.body).not.toContain('disk on fire');
    expect(logged).toEqual(['GetMapCount Server: disk on fire']);
  });

  it('serves the WSDL with the endpoint it is mounted at', () => {
    const response = service.wsdl(target);
    expect(response.status).toBe(200);
    expect(response.body).toContain(`<soap:address location="${target.endpointUrl}" />`);
  });

  it('reads the operation of a SOAPAction with a path or a fragment', () => {
    expect(operationOfSoapAction('"urn:x/GetMapTile"')).toBe('GetMapTile');
    expect(operationOfSoapAction('urn:x#Find')).toBe('Find');
    expect(operationOfSoapAction('""')).toBeUndefined();
    expect(operationOfSoapAction(null)).toBeUndefined();
  });

  it('encodes the fixed result of every one of the 55 operations without error', async () => {
    for (const name of SCHEMA.operations.keys()) {
      const op = name as SoapOperationName;
      const handler = FIXED_HANDLERS[op] as (request: unknown, ctx: unknown) => Promise<unknown>;
      const request =
        op === 'GetMapName'
          ? { Index: 0 }
          : { QueryFilter: {}, ScreenXValues: [], ScreenYValues: [], SearchString: 'Main' };
      expect(encodeResponse(op, await handler(request, {}))).toContain(`<tns:${op}Response>`);
    }
  });

  it('requires a handler for every operation at compile time', () => {
    const { GetMapCount: _omitted, ...rest } = FIXED_HANDLERS;
    // @ts-expect-error GetMapCount has no handler
    const incomplete: SoapHandlers = rest;
    expect(Object.keys(incomplete)).toHaveLength(54);
  });
});
