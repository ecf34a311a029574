import type { LayerCatalog } from '../layer-catalog.js';
import type { NormalizedQuery } from '../normalized-query.js';
import { normalizeQuantizationParameters } from '../quantize-parameters.js';
import { normalizeFlags } from './flags.js';
import { normalizeFormat } from './format.js';
import { normalizeGeometryPrecision, normalizeMaxAllowableOffset } from './generalization.js';
import { normalizeGeometryFilter } from './geometry.js';
import { normalizeHaving } from './having.js';
import { normalizeObjectIds } from './object-ids.js';
import { normalizeOrderBy } from './order-by.js';
import { normalizeGroupBy, normalizeOutFields } from './out-fields.js';
import { normalizeOutStatistics } from './out-statistics.js';
import {
  normalizeMaxRecordCountFactor,
  normalizeResultOffset,
  normalizeResultRecordCount,
  normalizeResultType,
} from './paging.js';
import type { QueryParams } from './parameter-values.js';
import { fail, readBoolean } from './parameter-values.js';
import { spatialReferenceParameter } from './spatial-reference.js';
import { normalizeTime } from './time.js';
import { refuseUnhonoured } from './unhonoured.js';
import { normalizeSqlFormat, normalizeWhere } from './where.js';

/**
 * All query parameters of one request, each through its own normalizer. `params` has lower-cased
 * names (the API layer folds the spelling clients use). The first bad value raises a 400 naming it.
 */
export function normalizeQuery(params: QueryParams, layer: LayerCatalog): NormalizedQuery {
  refuseUnhonoured(params);
  const flags = normalizeFlags(params);
  const outFields = normalizeOutFields(params.outfields, layer.fields);
  const outStatistics = normalizeOutStatistics(params.outstatistics, layer.fields);
  const sqlFormat = normalizeSqlFormat(params.sqlformat);
  const groupByFieldsForStatistics = normalizeGroupBy(params.groupbyfieldsforstatistics, layer.fields);
  const returnCentroid = readBoolean('returnCentroid', params.returncentroid, false);
  const query: NormalizedQuery = {
    where: normalizeWhere(params.where, sqlFormat),
    objectIds: normalizeObjectIds(params.objectids),
    geometry: normalizeGeometryFilter(params),
    outFields,
    ...flags,
    // Tables have no shape, and distinct values are attribute combinations only.
    returnGeometry: flags.returnGeometry && layer.hasGeometry && !flags.returnDistinctValues,
    orderBy: normalizeOrderBy(
      params.orderbyfields,
      layer.fields,
      outStatistics?.map((s) => s.outStatisticFieldName),
    ),
    resultOffset: normalizeResultOffset(params.resultoffset),
    resultRecordCount: normalizeResultRecordCount(params.resultrecordcount),
    maxRecordCountFactor: normalizeMaxRecordCountFactor(params.maxrecordcountfactor),
    ...normalizeResultType(params.resulttype),
    outSR:
      spatialReferenceParameter('outSR', params.outsr) ??
      spatialReferenceParameter('defaultSR', params.defaultsr),
    outStatistics,
    groupByFieldsForStatistics,
    format: normalizeFormat(params.f),
    maxAllowableOffset: normalizeMaxAllowableOffset(params.maxallowableoffset),
    geometryPrecision: normalizeGeometryPrecision(params.geometryprecision),
    quantization: normalizeQuantizationParameters(params.quantizationparameters),
    time: normalizeTime(params),
    having: normalizeHaving(params.having, sqlFormat, groupByFieldsForStatistics, outStatistics !== null),
    sqlFormat,
    returnCentroid,
    returnExceededLimitFeatures: readBoolean(
      'returnExceededLimitFeatures',
      params.returnexceededlimitfeatures,
      true,
    ),
  };
  if (query.quantization && query.format === 'geojson')
    throw fail('quantizationParameters', 'GeoJSON has no integer coordinates; use f=json or f=pbf');
  if (returnCentroid && layer.geometryType !== 'esriGeometryPolygon')
    throw fail('returnCentroid', 'centroids are returned for polygon layers only');
  if (returnCentroid && query.format === 'geojson')
    throw fail('returnCentroid', 'GeoJSON has no place for a centroid; ask f=json');
  if (query.time && !layer.timeInfo) throw fail('time', 'this layer is not time-aware (it has no timeInfo)');
  if (query.returnDistinctValues && !outStatistics && (outFields.all || outFields.names.length === 0)) {
    throw fail('outFields', 'returnDistinctValues needs a list of fields, not * or nothing');
  }
  if (query.groupByFieldsForStatistics.length > 0 && !outStatistics) {
    throw fail('groupByFieldsForStatistics', 'grouping needs outStatistics');
  }
  // A quantized JSON answer is x/y only here (PBF carries z and m): they are refused, not dropped.
  const zm = query.returnGeometry && ((query.returnZ && layer.hasZ) || (query.returnM && layer.hasM));
  if (zm && query.quantization && query.format !== 'pbf')
    throw fail(
      query.returnZ && layer.hasZ ? 'returnZ' : 'returnM',
      'quantized coordinates are x/y only; leave out quantizationParameters',
    );
  if (query.geometry && !layer.hasGeometry)
    throw fail('geometry', 'this layer is a table and has no geometry');
  return query;
}
