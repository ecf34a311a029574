import { describe, expect, it } from 'vitest';
import { badRequest, internalError, notFound } from '../../../lib/errors.js';
import { clientFault, faultFromError, renderFault } from '../../../soap/fault.js';

describe('SOAP faults', () => {
  it('renders a GeoError below 500 as soap:Client with the error model in the detail', () => {
    const xml = renderFault(
      faultFromError(badRequest('Invalid LayerID: 99', ['Layer 99 does not exist.'], 'MAP_1')),
    );
    expect(xml).toContain('<faultcode>soap:Client</faultcode>');
    expect(xml).toContain('<faultstring>Invalid LayerID: 99</faultstring>');
    expect(xml).toContain(
      '<detail><tns:GeoError><Code>400</Code><Message>Invalid LayerID: 99</Message><Details><String>Layer 99 does not exist.</String></Details><MessageCode>MAP_1</MessageCode></tns:GeoError></detail>',
    );
  });

  it('keeps the code of other client errors such as 404', () => {
    const fault = faultFromError(notFound('No such map'));
    expect(fault.faultCode).toBe('Client');
    expect(renderFault(fault)).toContain('<Code>404</Code>');
  });

  it('renders a 5xx GeoError as soap:Server', () => {
    expect(renderFault(faultFromError(internalError('Storage unavailable')))).toContain(
      '<faultcode>soap:Server</faultcode>',
    );
  });

  it('hides the message of an unexpected error', () => {
    const xml = renderFault(faultFromError(new Error('password=hunter2 at db.ts:12')));
    expect(xml).toContain('<faultstring>Unable to complete operation.</faultstring>');
    expect(xml).not.toContain('hunter2');
  });

  it('escapes markup in fault text', () => {
    expect(renderFault(clientFault('Bad <WhereClause> & more'))).toContain(
      '<faultstring>Bad &lt;WhereClause&gt; &amp; more</faultstring>',
    );
  });

  it('declares the SOAP 1.1 envelope namespace', () => {
    expect(renderFault(clientFault('x'))).toContain('xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"');
  });
});
