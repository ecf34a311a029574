import { type ErrorBody, isGeoError } from '../lib/errors.js';
import { GEO_NAMESPACE } from './schema/model.js';
import { escapeText } from './xml-text.js';

/**
 * SOAP 1.1 faults. Bad input is `soap:Client`, anything that went wrong on our side `soap:Server`;
 * the detail carries the product's one error model (code, message, details, messageCode).
 */
export type FaultCode = 'Client' | 'Server' | 'VersionMismatch' | 'MustUnderstand';

export const SOAP_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

export class SoapFault extends Error {
  readonly faultCode: FaultCode;
  readonly body: ErrorBody;

  constructor(faultCode: FaultCode, body: ErrorBody) {
    super(body.message);
    this.name = 'SoapFault';
    this.faultCode = faultCode;
    this.body = body;
  }
}

export const isSoapFault = (e: unknown): e is SoapFault => e instanceof SoapFault;

/** A fault caused by the request itself (malformed XML, wrong element, value out of range). */
export const clientFault = (message: string, details: string[] = []): SoapFault =>
  new SoapFault('Client', { code: 400, message, details });

/** Maps anything thrown while serving a request to a fault; unknown errors do not leak internals. */
export function faultFromError(error: unknown): SoapFault {
  if (isSoapFault(error)) return error;
  if (isGeoError(error)) return new SoapFault(error.code < 500 ? 'Client' : 'Server', error.toBody());
  return new SoapFault('Server', {
    code: 500,
    message: 'Unable to complete operation.',
    details: ['An unexpected error occurred on the server.'],
  });
}

function detailXml(body: ErrorBody): string {
  const details = body.details.length
    ? `<Details>${body.details.map((d) => `<String>${escapeText(d)}</String>`).join('')}</Details>`
    : '';
  const messageCode = body.messageCode ? `<MessageCode>${escapeText(body.messageCode)}</MessageCode>` : '';
  return `<tns:GeoError><Code>${body.code}</Code><Message>${escapeText(body.message)}</Message>${details}${messageCode}</tns:GeoError>`;
}

export function renderFault(fault: SoapFault): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NS}" xmlns:tns="${GEO_NAMESPACE}">`,
    '<soap:Body><soap:Fault>',
    `<faultcode>soap:${fault.faultCode}</faultcode>`,
    `<faultstring>${escapeText(fault.message)}</faultstring>`,
    `<detail>${detailXml(fault.body)}</detail>`,
    '</soap:Fault></soap:Body></soap:Envelope>',
  ].join('');
}
