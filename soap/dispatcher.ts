import { DEFAULT_LIMITS, type EnvelopeLimits } from './envelope-reader.js';
import { clientFault, faultFromError, renderFault, type SoapFault } from './fault.js';
import type { SoapOperationName } from './operation-names.js';
import { SCHEMA } from './schema/registry.js';
import type { SoapContext, SoapHandlers, SoapHttpRequest, SoapHttpResponse } from './service-types.js';
import { renderWsdl, type WsdlOptions } from './wsdl.js';
import { decodeRequest } from './xml-decoder.js';
import { encodeResponse } from './xml-encoder.js';

/**
 * The map-server SOAP endpoint, independent of any HTTP framework: decode the envelope, check the
 * SOAPAction against the body, call the operation's handler, encode its result, or render a fault.
 * SOAP 1.1 over HTTP answers faults with status 500.
 */
export interface SoapServiceOptions {
  limits?: Partial<EnvelopeLimits>;
  /** Called with every fault whose cause is on our side (soap:Server), for logging. */
  onServerFault?: (fault: SoapFault, cause: unknown, operation: SoapOperationName | undefined) => void;
}

export interface SoapService<L = undefined> {
  handle(request: SoapHttpRequest<L>): Promise<SoapHttpResponse>;
  /** The answer to `GET …/MapServer?wsdl`. */
  wsdl(options: WsdlOptions): SoapHttpResponse;
}

export const SOAP_CONTENT_TYPE = 'text/xml; charset=utf-8';

/** The operation a SOAPAction names (`…/GetMapTile`, `…#GetMapTile`), or undefined for an empty one. */
export function operationOfSoapAction(header: string | null | undefined): string | undefined {
  const action = (header ?? '')
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
  if (action === '') return undefined;
  return action.slice(Math.max(action.lastIndexOf('/'), action.lastIndexOf('#')) + 1);
}

export function createSoapService<L = undefined>(
  handlers: SoapHandlers<L>,
  options: SoapServiceOptions = {},
): SoapService<L> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };

  const fault = (error: unknown, operation: SoapOperationName | undefined): SoapHttpResponse => {
    const soapFault = faultFromError(error);
    if (soapFault.faultCode === 'Server') options.onServerFault?.(soapFault, error, operation);
    return { status: 500, contentType: SOAP_CONTENT_TYPE, body: renderFault(soapFault) };
  };

  return {
    async handle(request) {
      let operation: SoapOperationName | undefined;
      try {
        const decoded = decodeRequest(request.body, limits);
        operation = decoded.operation;
        const named = operationOfSoapAction(request.soapAction);
        // Clients built from the real server's WSDL send an empty action; only a contradiction is refused.
        if (named !== undefined && named !== operation && SCHEMA.operations.has(named)) {
          throw clientFault(`SOAPAction names ${named} but the body holds ${operation}.`);
        }
        const handler = handlers[operation] as (req: unknown, ctx: SoapContext<L>) => Promise<unknown>;
        const ctx: SoapContext<L> = {
          operation,
          serviceName: request.serviceName,
          endpointUrl: request.endpointUrl,
          locals: (request as { locals?: L }).locals as L,
        };
        const result = await handler(decoded.request, ctx);
        return { status: 200, contentType: SOAP_CONTENT_TYPE, body: encodeResponse(operation, result) };
      } catch (error) {
        return fault(error, operation);
      }
    },
    wsdl: (wsdlOptions) => ({ status: 200, contentType: SOAP_CONTENT_TYPE, body: renderWsdl(wsdlOptions) }),
  };
}
