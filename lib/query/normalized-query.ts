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
  /** Null means the layer's own spatial reference. */
  outSR: SpatialReference | null;
  outStatistics: OutStatistic[] | null;
  groupByFieldsForStatistics: string[];
  format: QueryFormat;
  maxAllowableOffset: number | null;
  geometryPrecision: number | null;
  /** Null: coordinates as stored (f=pbf then picks the finest grid that fits, see quantize-transform.ts). */
  quantization: QuantizationParameters | null;
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
}

export interface OrderBy {
  /** Canonical Esri field name. */
  field: string;
  direction: 'ASC' | 'DESC';
}

export type StatisticType = 'count' | 'sum' | 'min' | 'max' | 'avg' | 'stddev' | 'var';

export interface OutStatistic {
  statisticType: StatisticType;
  /** Canonical Esri field name, or `*` for a count of rows. */
  onStatisticField: string;
  outStatisticFieldName: string;
}
