import { fail, present, type QueryParams, readBoolean } from './parameter-values.js';

/**
 * The parameters ArcGIS documents for a layer query that this server cannot honour, each with the
 * values that change nothing here. A request passing any other value is refused naming the
 * parameter, so no client gets an answer that silently ignored what it asked. Parameters ArcGIS does
 * not document are ignored, as ArcGIS ignores them (`token`, `callback`, cache-busting `_ts`...).
 *
 * - A boolean that asks for something we do not return is accepted only as false: `returnGeodetic`
 *   (no geodetic shapes), `returnEnvelope`, `returnQueryGeometry`, `returnUniqueIdsOnly`,
 *   `applyVCSProjection` (no vertical coordinate systems).
 * - `returnTrueCurves`, `cacheHint` and `timeReferenceUnknownClient` are accepted either way: hosted
 *   layers here store no true curves (true would return the same densified shapes ArcGIS returns for
 *   straight segments), a cache hint changes no answer, and dates are stored in UTC, so a client
 *   that can read non-UTC dates gets the UTC ones it would get anyway.
 * - `multipatchOption` takes its documented values as a no-op: it applies to multipatch layers only,
 *   and no hosted layer here is one (ArcGIS ignores it on other layers too).
 * - `featureEncoding` `esriDefault` only (`maxRecordCountFactor` is honoured: paging.ts).
 * - Versioning, archiving, datum transformations, collations, query layers' parameter and range
 *   values, unique ids and the relation spatialRel's parameter are refused whenever given.
 */
const FALSE_ONLY = [
  'returnGeodetic',
  'returnEnvelope',
  'returnQueryGeometry',
  'returnUniqueIdsOnly',
  'applyVCSProjection',
];
const EITHER_BOOLEAN = ['returnTrueCurves', 'cacheHint', 'timeReferenceUnknownClient'];
const NEVER = [
  'gdbVersion',
  'historicMoment',
  'datumTransformation',
  'collation',
  'rangeValues',
  'parameterValues',
  'uniqueIds',
  'relationParam',
];
const MULTIPATCH_OPTIONS = [
  'xyFootprint',
  'stripMaterials',
  'embedMaterials',
  'externalizeTextures',
  'extent',
];

export function refuseUnhonoured(params: QueryParams): void {
  for (const name of FALSE_ONLY) {
    if (readBoolean(name, params[name.toLowerCase()], false))
      throw fail(name, `${name}=true is not supported by this server`);
  }
  for (const name of EITHER_BOOLEAN) readBoolean(name, params[name.toLowerCase()], false);
  for (const name of NEVER) {
    if (present(params[name.toLowerCase()]) !== undefined)
      throw fail(
        name,
        `${name} is not supported by this server (hosted layers here are not versioned or archived)`,
      );
  }
  const multipatch = present(params.multipatchoption);
  if (
    multipatch !== undefined &&
    !MULTIPATCH_OPTIONS.some((o) => o.toLowerCase() === multipatch.toLowerCase())
  )
    throw fail('multipatchOption', `'${multipatch}' is not one of ${MULTIPATCH_OPTIONS.join(', ')}`);
  const encoding = present(params.featureencoding)?.toLowerCase();
  if (encoding !== undefined && encoding !== 'esridefault')
    throw fail('featureEncoding', `'${params.featureencoding}' is not supported; use esriDefault`);
}
