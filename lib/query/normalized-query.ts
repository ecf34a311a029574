import type { SpatialRel } from '../geometry/spatial-relation.js';
import type { Bounds, EsriGeometry, EsriGeometryType, SpatialReference } from '../geometry/types.js';
import type { QuantizationParameters } from './quantize-parameters.js';
import type { Condition } from './where-ast.js';

/** A FeatureServer query request after normalization: every value typed, checked and defaulted. */
export interface NormalizedQuery {
  /** Null when the request has no filter (absent `where`, or the `1=1` idiom). */
  where: Condition | null;
  objectIds: number[] | null;
  geometry: GeometryFilter | null;
  /** Canonical Esri field names as asked (`all` when `*`); the object id is added by the plan. */
  outFields: OutFields;
  returnGeometry: boolean;
  returnCountOnly: boolean;
  returnIdsOnly: boolean;
  returnExtentOnly: boolean;
  returnDistinctValues: boolean;
  returnZ: boolean;
  returnM: boolean;
  orderBy: OrderBy[];
  resultOffset: number;
  /** Null when the client did not ask: the layer's maxRecordCount applies. */
  resultRecordCount: number | null;
  /** `maxRecordCountFactor` (1 to 5): a page may hold maxRecordCount × this many rows; absent: 1. */
  maxRecordCountFactor?: number;
  /**
   * `resultType`: `standard` and `tile` page by the layer's standardMaxRecordCount / tileMaxRecordCount
   * instead of maxRecordCount (esri-leaflet always asks `tile`); absent or `none`: maxRecordCount.
   */
  resultType?: 'standard' | 'tile';
  /** Null means the layer's own spatial reference. */
  outSR: SpatialReference | null;
  outStatistics: OutStatistic[] | null;
  groupByFieldsForStatistics: string[];
  format: QueryFormat;
  maxAllowableOffset: number | null;
  geometryPrecision: number | null;
  /** Null: coordinates as stored (f=pbf then picks the finest grid that fits, see quantize-transform.ts). */
  quantization: QuantizationParameters | null;
  /** `time` against the layer's timeInfo fields; null for none. */
  time: TimeFilter | null;
  /** A condition on the groups of a statistics query. */
  having: Condition | null;
  sqlFormat: SqlDialect;
  /** Polygon layers: each feature carries its centroid. */
  returnCentroid: boolean;
  /** False: a page that exceeds the limit answers no features, only exceededTransferLimit. */
  returnExceededLimitFeatures: boolean;
}

export type QueryFormat = 'json' | 'pjson' | 'geojson' | 'pbf';

export interface OutFields {
  all: boolean;
  names: string[];
}

/** The relations the exact filter of lib/geometry evaluates, from the query geometry's side. */
export type { SpatialRel } from '../geometry/spatial-relation.js';

export interface GeometryFilter {
  geometry: EsriGeometry;
  geometryType: EsriGeometryType;
  /** The filter geometry's spatial reference; null means the layer's own. */
  inSR: SpatialReference | null;
  spatialRel: SpatialRel;
  /** Envelope of `geometry`, in `inSR`. */
  bounds: Bounds;
  /** A buffered filter (`distance` with `units`); null for none. */
  distance: FilterDistance | null;
}

export type LinearUnit =
  | 'esriSRUnit_Meter'
  | 'esriSRUnit_Kilometer'
  | 'esriSRUnit_Foot'
  | 'esriSRUnit_SurveyFoot'
  | 'esriSRUnit_StatuteMile'
  | 'esriSRUnit_NauticalMile'
  | 'esriSRUnit_USNauticalMile';

export interface FilterDistance {
  value: number;
  /** Null: the unit of the filter geometry's spatial reference. */
  units: LinearUnit | null;
}

/** A time extent in epoch milliseconds; a null end is open. */
export interface TimeFilter {
  start: number | null;
  end: number | null;
}

export interface OrderBy {
  /** Canonical Esri field name. */
  field: string;
  direction: 'ASC' | 'DESC';
}

export type StatisticType =
  | 'count'
  | 'sum'
  | 'min'
  | 'max'
  | 'avg'
  | 'stddev'
  | 'var'
  | 'percentile_cont'
  | 'percentile_disc';

export interface OutStatistic {
  statisticType: StatisticType;
  /** Canonical Esri field name, or `*` for a count of rows. */
  onStatisticField: string;
  outStatisticFieldName: string;
  /** Percentiles only: the fraction (0..1) and the order the values are ranked in. */
  statisticParameters?: { value: number; orderBy: 'ASC' | 'DESC' };
}

/** Which SQL function names `where` and `having` are read with (sqlFormat; none is standard here). */
export type SqlDialect = 'standard' | 'native';
