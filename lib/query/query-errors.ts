import { badRequest, type GeoError } from '../errors.js';

/**
 * Errors of the query operation. ArcGIS answers a bad query with a 400 whose message is generic and
 * whose details name the parameter; we add a second detail line saying what exactly is wrong.
 */
export const QUERY_ERROR_MESSAGE = 'Unable to complete operation.';

export const invalidParameter = (parameter: string, problem: string): GeoError =>
  badRequest(QUERY_ERROR_MESSAGE, [`'${parameter}' parameter is invalid`, problem]);

/** A where clause that does not parse, names an unknown field or mixes types. */
export const invalidWhere = (problem: string): GeoError => invalidParameter('where', problem);
