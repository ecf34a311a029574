/**
 * The one error model of the product. Thrown from anywhere; each surface renders it once:
 * the Esri JSON envelope for REST, a SOAP Fault for SOAP, a non-retryable failure for workflows.
 */
export interface ErrorBody {
  code: number;
  message: string;
  details: string[];
  messageCode?: string;
  /** Extra keys some operations put inside `error` (e.g. offendingItems). */
  extra?: Record<string, unknown>;
}

export class GeoError extends Error {
  readonly code: number;
  readonly details: string[];
  readonly messageCode?: string;
  readonly extra?: Record<string, unknown>;

  constructor(body: ErrorBody) {
    super(body.message);
    this.name = 'GeoError';
    this.code = body.code;
    this.details = body.details;
    this.messageCode = body.messageCode;
    this.extra = body.extra;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, details: this.details };
    if (this.messageCode) body.messageCode = this.messageCode;
    if (this.extra) body.extra = this.extra;
    return body;
  }
}

export const isGeoError = (e: unknown): e is GeoError => e instanceof GeoError;

export const badRequest = (message: string, details: string[] = [], messageCode?: string): GeoError =>
  new GeoError({ code: 400, message, details, messageCode });

export const forbidden = (
  message = 'You do not have permissions to access this resource or perform this operation.',
  details: string[] = [],
): GeoError => new GeoError({ code: 403, message, details, messageCode: 'GWM_0003' });

export const notFound = (message: string, details: string[] = [], messageCode?: string): GeoError =>
  new GeoError({ code: 404, message, details, messageCode });

/** The messages of 498 and 499 stay verbatim: real clients match on them to refresh credentials. */
export const invalidToken = (): GeoError =>
  new GeoError({ code: 498, message: 'Invalid token.', details: [] });

export const tokenRequired = (): GeoError =>
  new GeoError({
    code: 499,
    message: 'Token Required',
    details: ['Token Required'],
    messageCode: 'GWM_0003',
  });

export const itemNotFound = (): GeoError =>
  badRequest('Item does not exist or is inaccessible.', [], 'CONT_0001');

export const internalError = (message = 'Unable to complete operation.', details: string[] = []): GeoError =>
  new GeoError({ code: 500, message, details });

/** PostgreSQL's query_canceled, raised when a statement outlives statement_timeout. */
const QUERY_CANCELED = '57014';

function sqlState(e: unknown): unknown {
  for (let cause = e, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Any thrown value as a GeoError; unknown errors become a 500 that does not leak internals. */
export function toGeoError(e: unknown): GeoError {
  if (isGeoError(e)) return e;
  if (sqlState(e) === QUERY_CANCELED)
    return badRequest('The request took too long to answer.', [
      'The database stopped the statement at the time limit (STATEMENT_TIMEOUT_SECONDS). Ask for less: a narrower where clause, extent or fewer records.',
    ]);
  return internalError('Unable to complete operation.', ['An unexpected error occurred on the server.']);
}
