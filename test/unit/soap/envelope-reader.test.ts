import { describe, expect, it } from 'vitest';
import { readEnvelope } from '../../../soap/envelope-reader.js';
import { SoapFault } from '../../../soap/fault.js';
import { readFixture } from './fixtures.js';

function faultOf(raw: string, limits?: Parameters<typeof readEnvelope>[1]): SoapFault {
  try {
    readEnvelope(raw, limits);
  } catch (e) {
    if (e instanceof SoapFault) return e;
    throw e;
  }
  throw new Error('expected a fault');
}

const nested = (depth: number) =>
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMapCount>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</GetMapCount></soap:Body></soap:Envelope>`;

describe('reading hostile or broken envelopes', () => {
  it('refuses a DOCTYPE with an external entity before parsing (XXE)', () => {
    const fault = faultOf(readFixture('hostile/xxe-doctype.xml'));
    expect(fault.faultCode).toBe('Client');
    expect(fault.message).toBe('Document type and entity declarations are not allowed in SOAP messages.');
    expect(fault.message).not.toContain('root:');
  });

  it('refuses nested entity expansion (billion laughs)', () => {
    expect(faultOf(readFixture('hostile/billion-laughs.xml')).message).toContain('not allowed');
  });

  it('refuses a DOCTYPE however it is cased', () => {
    expect(faultOf(readFixture('hostile/lowercase-doctype.xml')).faultCode).toBe('Client');
  });

  it('refuses malformed XML with the parser’s position', () => {
    const fault = faultOf(readFixture('hostile/malformed.xml'));
    expect(fault.message).toBe('The request is not well-formed XML.');
    expect(fault.body.details[0]).toMatch(/line 1/);
  });

  it('refuses a document that is not a SOAP envelope', () => {
    expect(faultOf(readFixture('hostile/not-an-envelope.xml')).message).toBe(
      'The request is not a SOAP envelope.',
    );
  });

  it('answers a SOAP 1.2 envelope with VersionMismatch', () => {
    expect(faultOf(readFixture('hostile/soap12-envelope.xml')).faultCode).toBe('VersionMismatch');
  });

  it('reads a SOAP 1.1 envelope whose text merely mentions the SOAP 1.2 namespace', () => {
    const raw = `<e:Envelope xmlns:e='http://schemas.xmlsoap.org/soap/envelope/'><e:Body><GetMapName><Index>http://www.w3.org/2003/05/soap-envelope</Index></GetMapName></e:Body></e:Envelope>`;
    expect(readEnvelope(raw).name).toBe('GetMapName');
  });

  it('answers an Envelope in no namespace with VersionMismatch', () => {
    expect(faultOf('<Envelope><Body><GetMapCount/></Body></Envelope>').faultCode).toBe('VersionMismatch');
  });

  it('refuses a header it must understand but does not', () => {
    expect(faultOf(readFixture('hostile/must-understand-header.xml')).faultCode).toBe('MustUnderstand');
  });

  it('refuses a request over the size limit', () => {
    const fault = faultOf(readFixture('requests/get-map-tile.xml'), { maxBytes: 100, maxDepth: 64 });
    expect(fault.message).toBe('The request is larger than 100 bytes.');
  });

  it('refuses nesting deeper than the limit', () => {
    expect(faultOf(nested(100)).message).toBe('The request nests elements deeper than 64 levels.');
    expect(readEnvelope(nested(10)).name).toBe('GetMapCount');
  });

  it('counts nesting without being fooled by comments, CDATA, quotes or self-closing tags', () => {
    // Envelope, Body, GetMapCount and a are 4 levels; f and h are the fifth.
    const raw = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMapCount><a><!-- <b><c> --><![CDATA[<d><e>]]><f x="&lt;g>"/><h></h></a></GetMapCount></soap:Body></soap:Envelope>`;
    expect(readEnvelope(raw, { maxBytes: 1024, maxDepth: 5 }).name).toBe('GetMapCount');
    expect(faultOf(raw, { maxBytes: 1024, maxDepth: 4 }).message).toBe(
      'The request nests elements deeper than 4 levels.',
    );
  });

  it('refuses element names the parser reserves (prototype pollution) as a client error', () => {
    const raw =
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><GetServerInfo><__proto__><x>1</x></__proto__><MapName>m</MapName></GetServerInfo></s:Body></s:Envelope>';
    const fault = faultOf(raw);
    expect(fault.faultCode).toBe('Client');
    expect(fault.message).toBe('The request could not be parsed.');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses an empty Body', () => {
    const raw = '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>';
    expect(faultOf(raw).message).toBe('The SOAP Body must hold exactly one operation element.');
  });
});
