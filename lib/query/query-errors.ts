import { badRequest, type GeoError } from '../errors.js';

/**
 * Errors of the query operation. ArcGIS answers a bad query with a 400 whose message is generic and
 * whose details name the parameter; we add a second detail line saying what exactly is wrong.
 */
export const QUERY_ERROR_MESSAGE = 'Unable to complete operation.';

export const invalidParameter = (parameter: string, problem: string): GeoError =>
  badRequest(QUERY_ERROR_MESSAGE, [`'${parameter}' parameter is invalid`, capped(problem)]);

/** Problems quote the client's text; a megabyte of it is not echoed back. */
const MAX_DETAIL = 300;
const capped = (text: string): string =>
  text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 3)}...` : text;

/** A where clause that does not parse, names an unknown field or mixes types. */
export const invalidWhere = (problem: string): GeoError => invalidParameter('where', problem);

/**
 * The error for a database failure while evaluating a filter on stored data: PostgreSQL SQLSTATE
 * class 22, "data exception" (overflow in POWER, a negative SUBSTRING length, ...). The compiler
 * rules out the common cases; the executor maps the rest with this instead of a 500.
 */
export function dataExceptionError(sqlstate: string | undefined): GeoError | null {
  if (!sqlstate?.startsWith('22')) return null;
  return invalidWhere('the where clause could not be evaluated on the stored values');
}
