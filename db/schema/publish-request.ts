/**
 * The shapes kept in `publish_jobs.request` and `publish_jobs.plan` (JSON, not tables): what publish
 * checked from the request, and what the workflow's first activity resolved from the data. Activities
 * read them by job id, so the workflow history carries ids only.
 */
import type { BoundaryKind } from '../../lib/geocode/boundary-lookup.js';
import type { EsriGeometryType, SpatialReference } from '../../lib/geometry/types.js';
import type { EsriFieldType } from '../../lib/query/field-types.js';

export type PublishFileType =
  | 'csv'
  | 'excel'
  | 'geojson'
  | 'shapefile'
  | 'sqlite'
  | 'featureCollection'
  | 'fileGeodatabase'
  | 'serviceDefinition';

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
      /** Another GeocodeServer to geocode with; absent: the in-process locator. */
      geocodeServiceUrl?: string;
      /** `AllFields`: the layer keeps the locator's output fields (Status, Score, Match_addr, Addr_type). */
      candidateFieldsType?: string;
      /** The names another GeocodeServer gives the address roles in geocodeAddresses records. */
      standardizedFieldNames?: Partial<Record<AddressRoleName, string>>;
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
  /** The locale numbers and dates of the source are written in (decimal comma, day-first dates). */
  sourceLocale?: string;
}

/**
 * A layer request with publishParameters' sourceLocale (top level, or the sheet's entry for Excel):
 * the locale the file's numbers and dates are written in.
 */
export type LayerRequestWithLocale = LayerRequest & { sourceLocale?: string };

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
  /**
   * Multi-table sources (GeoPackage, SQLite, feature collections): `layers` listed the tables to publish by their position
   * in the file; without it every table is published.
   */
  listedLayers?: boolean;
  /** Re-publishing into an existing service: load beside its tables, swap in at the end. */
  overwrite?: boolean;
}

/**
 * The request of a tile job (a Map Service from a feature service or a tile package, a Vector Tile
 * Service from a .vtpk, or the Map Service a publish with buildInitialCache creates). Its levels and
 * storage live on the tile cache row; the job keeps what the status and the Temporal memo show.
 */
export interface TileRequest {
  kind: 'tiles';
  tileKind: 'featureService' | 'featureServiceVectorTiles' | 'tilePackage' | 'vectorTilePackage';
  serviceName: string;
  /** Bytes of the package; 0 for a cache drawn from a feature service. */
  sourceSize: number;
  /** The hosted feature service the cache is drawn from. */
  sourceServiceItemId?: string;
  /** Tile jobs reject no rows, so none are kept for review. */
  persistErrorRecordsForReview: false;
}

/** What a publish job's `request` column holds. */
export type JobRequest = PublishRequest | TileRequest;

export const isTileRequest = (r: JobRequest): r is TileRequest => 'kind' in r && r.kind === 'tiles';

export interface PlannedField {
  name: string;
  alias: string;
  type: EsriFieldType;
  length?: number;
  dateFormat?: 'iso' | 'ymd' | 'mdy' | 'dmy';
  /** False when the source declares the column NOT NULL (GeoPackage, SQLite); absent: nullable. */
  nullable?: boolean;
  /** An Esri coded-value or range domain the source declares (GeoPackage constraints, file geodatabases). */
  domain?: Record<string, unknown>;
  /** Position of the value in a source row. */
  sourceIndex: number;
  /** Physical column `a_<n>`. */
  column: string;
  locationType: string;
}

/** locationType lookup: each row's value matched to a boundary polygon of a kind. */
export interface LookupPlan {
  type: 'lookup';
  /** Position of the looked-up value in a source row. */
  index: number;
  /** The kind of place the values name; absent: any kind (countries first). */
  kind?: BoundaryKind;
  countryCode?: string;
}

/** The location columns resolved to positions in a source row. */
export type LocationPlan =
  | { type: 'coordinates'; xIndex: number; yIndex: number }
  | {
      type: 'address';
      roles: Partial<Record<AddressRoleName, number>>;
      template?: string;
      countryCode?: string;
      /** Another GeocodeServer to geocode with; absent: the in-process locator. */
      geocodeServiceUrl?: string;
      /** Geocoding output fields kept in the layer, after the source's columns (candidateFieldsType AllFields). */
      candidateFields?: boolean;
      /** Record attribute names for the address roles when another GeocodeServer geocodes. */
      standardizedFieldNames?: Partial<Record<AddressRoleName, string>>;
    }
  | LookupPlan
  | { type: 'geometry' }
  | { type: 'none' };

export type SourcePlan =
  | {
      kind: 'csv';
      dialect: { encoding: string; delimiter: string; qualifier: string; newline: '\r\n' | '\n' };
      dataOffset: number;
      /** Bytes a record of planning's sample took on average (absent in plans made before). */
      bytesPerRecord?: number;
    }
  | { kind: 'excel'; sheet: string }
  /**
   * GeoJSON and shapefiles. GeoJSON streams, so the plan keeps what the whole file showed: the
   * property names in row order and the layer's geometry type (absent in plans made before).
   */
  | {
      kind: 'features';
      headers?: string[];
      geometryType?: EsriGeometryType | null;
      /** The file's geometries have z (a third ordinate), kept in the stored shapes. */
      hasZ?: boolean;
    }
  /** One layer of an ArcGIS feature collection, by its position in the `layers` array. */
  | { kind: 'featureCollection'; index: number; hasZ?: boolean; hasM?: boolean }
  /**
   * A table of a GeoPackage or SQLite database: its columns in row order, the integer key rows are
   * read in order of (the resume point), and the geometry column with its encoding.
   */
  | {
      kind: 'sqlite';
      /** The object holding the database when it is not the source itself (a converted file geodatabase). */
      objectKey?: string;
      table: string;
      key: string;
      columns: string[];
      geometryColumn: string | null;
      geometryFormat: 'gpkg' | 'spatialite' | 'wkb';
      /** The z and m the table declares, kept in the stored shapes (absent in plans made before). */
      hasZ?: boolean;
      hasM?: boolean;
      /**
       * Text columns declared without a width and not measured when planning: their fields are
       * published with the longest value loaded (bytes), at least their planned length.
       */
      measuredText?: string[];
      /** The table's rows, counted when planning a large file (absent for small ones and older plans). */
      rows?: number;
    };

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
  /** Relationships the source file declares (file geodatabase relationship classes), ArcGIS layer JSON. */
  relationships?: Record<string, unknown>[];
}

export interface PublishPlan {
  layers: LayerPlan[];
  /** What the publish leaves out of the source, one message each (the job's status lists them). */
  warnings?: string[];
}
