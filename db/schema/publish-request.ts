/**
 * The shapes kept in `publish_jobs.request` and `publish_jobs.plan` (JSON, not tables): what publish
 * checked from the request, and what the workflow's first activity resolved from the data. Activities
 * read them by job id, so the workflow history carries ids only.
 */
import type { EsriGeometryType, SpatialReference } from '../../lib/geometry/types.js';
import type { EsriFieldType } from '../../lib/query/field-types.js';

export type PublishFileType = 'csv' | 'excel' | 'geojson' | 'shapefile';

export type AddressRoleName = 'Address' | 'City' | 'Region' | 'Postal' | 'PostalExt' | 'CountryCode';

/** Where each feature's location comes from, as publishParameters said it (column names). */
export type LocationRequest =
  | { type: 'coordinates'; latitudeFieldName?: string; longitudeFieldName?: string }
  | {
      type: 'address';
      addressFields: Partial<Record<AddressRoleName, string>>;
      /** A single-line template such as "{Street}, {City}" used when no addressFields are given. */
      addressTemplate?: string;
      sourceCountry?: string;
    }
  | { type: 'lookup'; lookupType: string; lookupFields: Record<string, string>; sourceCountry?: string }
  | { type: 'none' }
  /** GeoJSON and shapefiles carry their own geometry. */
  | { type: 'geometry' };

export interface LayerRequest {
  id: number;
  name: string;
  /** Excel: the sheet, by index (excelSheetId) or name. */
  sheet?: number | string;
  location: LocationRequest;
  /** The client's layerInfo (or `layers[]` entry): keys merged into the layer resource. */
  layerInfo: Record<string, unknown>;
  dateTimeZone?: string;
}

export interface ServiceProperties {
  description: string;
  copyrightText: string;
  maxRecordCount: number;
  hasStaticData: boolean;
  capabilities: string;
  hasAttachments: boolean;
  editorTrackingInfo: Record<string, boolean>;
  buildInitialCache: boolean;
  outputType: string;
}

export interface PublishRequest {
  fileType: PublishFileType;
  sourceKey: string;
  sourceSize: number;
  serviceName: string;
  /** Null: take it from the data (.prj, GeoJSON is WGS84) or default to WGS84. */
  sourceSR: SpatialReference | null;
  targetSR: SpatialReference;
  csv?: { delimiter?: string; qualifier?: string };
  layers: LayerRequest[];
  service: ServiceProperties;
  persistErrorRecordsForReview: boolean;
  /** Re-publishing into an existing service: load beside its tables, swap in at the end. */
  overwrite?: boolean;
}

export interface PlannedField {
  name: string;
  alias: string;
  type: EsriFieldType;
  length?: number;
  dateFormat?: 'iso' | 'ymd' | 'mdy' | 'dmy';
  /** Position of the value in a source row. */
  sourceIndex: number;
  /** Physical column `a_<n>`. */
  column: string;
  locationType: string;
}

/** The location columns resolved to positions in a source row. */
export type LocationPlan =
  | { type: 'coordinates'; xIndex: number; yIndex: number }
  | {
      type: 'address';
      roles: Partial<Record<AddressRoleName, number>>;
      template?: string;
      countryCode?: string;
    }
  | { type: 'geometry' }
  | { type: 'none' };

export type SourcePlan =
  | {
      kind: 'csv';
      dialect: { encoding: string; delimiter: string; qualifier: string; newline: '\r\n' | '\n' };
      dataOffset: number;
    }
  | { kind: 'excel'; sheet: string }
  /**
   * GeoJSON and shapefiles. GeoJSON streams, so the plan keeps what the whole file showed: the
   * property names in row order and the layer's geometry type (absent in plans made before).
   */
  | { kind: 'features'; headers?: string[]; geometryType?: EsriGeometryType | null };

export interface LayerPlan {
  id: number;
  name: string;
  tableName: string;
  /** Source column names in row order (address templates name them). */
  headers: string[];
  fields: PlannedField[];
  /** Null for a table (locationType none). */
  geometryType: EsriGeometryType | null;
  location: LocationPlan;
  source: SourcePlan;
  sourceSR: SpatialReference;
  decimalComma: boolean;
  timeZone?: string;
}

export interface PublishPlan {
  layers: LayerPlan[];
}
