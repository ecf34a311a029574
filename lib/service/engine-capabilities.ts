/**
 * What this server's query and edit engines do, as the layer and service JSON of a hosted feature
 * service advertise it. These keys are derived when the JSON is served, not taken from the stored
 * resource, so a service published before a capability existed advertises it (and one a publisher
 * stuffed with flags we do not honour does not) without a migration of stored JSON. The publish path
 * writes the same keys, so stored and served resources agree for new services.
 */

/** The answer formats of a layer query (`f`): json/pjson, geojson and pbf. */
export const QUERY_FORMATS = 'JSON, geoJSON, PBF';
/**
 * The item types append reads (api/services/layer-append.ts), as appendUploadFormat names them
 * (lib/edit/append-parameters.ts); serviceDefinition is ours, ArcGIS lists no such format.
 */
export const APPEND_FORMATS =
  'csv,excel,geojson,shapefile,featureCollection,sqlite,geoPackage,filegdb,serviceDefinition';

type Json = Record<string, unknown>;

/**
 * Layer keys about querying, of the layer under the FeatureServer and under the MapServer; only the
 * FeatureServer's layers answer `queryRelatedRecords` (`related`), with paging.
 */
export function layerQueryCapabilities(geometryType: unknown, related = true): Json {
  return {
    supportsStatistics: true,
    supportsAdvancedQueries: true,
    supportsValidateSql: false,
    supportsCoordinatesQuantization: true,
    advancedQueryCapabilities: {
      supportsPagination: true,
      supportsPaginationOnAggregatedQueries: true,
      supportsQueryRelatedPagination: related,
      supportsQueryWithDistance: true,
      supportsReturningQueryExtent: true,
      supportsStatistics: true,
      supportsPercentileStatistics: true,
      supportsHavingClause: true,
      supportsCountDistinct: true,
      supportsOrderBy: true,
      supportsDistinct: true,
      supportsQueryWithResultType: false,
      supportsSqlExpression: false,
      supportsAdvancedQueryRelated: related,
      supportsReturningGeometryCentroid: geometryType === 'esriGeometryPolygon',
      supportsQueryWithDatumTransformation: false,
      supportsQuantizationEditMode: true,
    },
    useStandardizedQueries: true,
    supportedQueryFormats: QUERY_FORMATS,
  };
}

/** Layer keys about editing, which only the FeatureServer's layers offer. */
export const LAYER_EDIT_CAPABILITIES: Readonly<Json> = {
  supportsAppend: true,
  supportedAppendFormats: APPEND_FORMATS,
  supportsCalculate: true,
  supportsTruncate: true,
  supportsAttachmentsByUploadId: false,
  supportsRollbackOnFailureParameter: true,
  supportsApplyEditsWithGlobalIds: false,
};

/** Service keys of the FeatureServer resource about what the service offers. */
export const SERVICE_CAPABILITIES: Readonly<Json> = {
  supportsDisconnectedEditing: false,
  supportsRelationshipsResource: false,
  syncEnabled: false,
  supportedQueryFormats: QUERY_FORMATS,
};

/** A `supports*` flag the engine does not set is no claim of ours: it goes. */
function withoutForeignFlags(stored: Json, ours: Json, drop: readonly string[] = []): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(stored)) {
    if (drop.includes(key)) continue;
    if (key.startsWith('supports') && !(key in ours)) continue;
    out[key] = value;
  }
  return out;
}

/** A stored layer resource as the FeatureServer serves it: the engine's capabilities over the stored ones. */
export function servedLayer(stored: Json): Json {
  const ours = { ...layerQueryCapabilities(stored.geometryType), ...LAYER_EDIT_CAPABILITIES };
  return { ...withoutForeignFlags(stored, ours), ...ours };
}

/** A stored layer resource as a MapServer layer: query capabilities only, no edit operations. */
export function servedMapLayer(stored: Json): Json {
  const ours = layerQueryCapabilities(stored.geometryType, false);
  return { ...withoutForeignFlags(stored, ours, Object.keys(LAYER_EDIT_CAPABILITIES)), ...ours };
}

/** A stored FeatureServer resource as it is served. */
export function servedService(stored: Json): Json {
  return { ...withoutForeignFlags(stored, SERVICE_CAPABILITIES), ...SERVICE_CAPABILITIES };
}
