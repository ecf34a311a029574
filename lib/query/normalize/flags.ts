import { type QueryParams, readBoolean } from './parameter-values.js';

/** The boolean switches of the query operation with their documented defaults. */
export interface QueryFlags {
  returnGeometry: boolean;
  returnCountOnly: boolean;
  returnIdsOnly: boolean;
  returnExtentOnly: boolean;
  returnDistinctValues: boolean;
  returnZ: boolean;
  returnM: boolean;
}

export function normalizeFlags(params: QueryParams): QueryFlags {
  return {
    returnGeometry: readBoolean('returnGeometry', params.returngeometry, true),
    returnCountOnly: readBoolean('returnCountOnly', params.returncountonly, false),
    returnIdsOnly: readBoolean('returnIdsOnly', params.returnidsonly, false),
    returnExtentOnly: readBoolean('returnExtentOnly', params.returnextentonly, false),
    returnDistinctValues: readBoolean('returnDistinctValues', params.returndistinctvalues, false),
    returnZ: readBoolean('returnZ', params.returnz, false),
    returnM: readBoolean('returnM', params.returnm, false),
  };
}
