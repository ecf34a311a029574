import type { SoapOperationName } from './operation-names.js';
import type { SoapOperationTypes } from './schema/generated-types.js';

/** What every handler learns about the request beyond its decoded body. */
export interface SoapContext<L = undefined> {
  operation: SoapOperationName;
  /** The published service the request was addressed to (`…/services/Hosted/{name}/MapServer`). */
  serviceName: string;
  /** Absolute URL of the endpoint, for results that carry URLs (image and cache locations). */
  endpointUrl: string;
  /** Per-request values the mounting code passes through (the caller's identity, a request id…). */
  locals: L;
}

export type SoapRequestOf<K extends SoapOperationName> = SoapOperationTypes[K]['request'];
export type SoapResponseOf<K extends SoapOperationName> = SoapOperationTypes[K]['response'];

export type SoapHandler<K extends SoapOperationName, L = undefined> = (
  request: SoapRequestOf<K>,
  ctx: SoapContext<L>,
) => Promise<SoapResponseOf<K>>;

/**
 * One handler per operation; every one of the 55 keys is required, so a service with a missing
 * operation does not compile. Handlers return the `Result` value itself (FromMapPoints returns its
 * two arrays) and throw GeoErrors for faults.
 */
export type SoapHandlers<L = undefined> = { [K in SoapOperationName]: SoapHandler<K, L> };

/**
 * The handlers of one group of operations (one handler file per group, each a factory over its
 * dependencies); spreading the groups into one object is checked for completeness by SoapHandlers.
 */
export type SoapHandlerGroup<K extends SoapOperationName, L = undefined> = Pick<SoapHandlers<L>, K>;

type LocalsField<L> = undefined extends L ? { locals?: L } : { locals: L };

/** An HTTP request reduced to what SOAP needs; the framework adapter fills it in. */
export type SoapHttpRequest<L = undefined> = {
  body: string;
  /** The SOAPAction header as received (quoted or not), if any. */
  soapAction?: string | null;
  serviceName: string;
  endpointUrl: string;
} & LocalsField<L>;

export interface SoapHttpResponse {
  status: number;
  contentType: string;
  body: string;
}
