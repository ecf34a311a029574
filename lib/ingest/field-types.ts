import type { EsriFieldType } from '../query/field-types.js';

/** The Esri field types, declared once beside how the query engine stores each. */
export type { EsriFieldType };

/** A cell as parsers hand it over: text from CSV, typed values from spreadsheets and GeoJSON. */
export type CellValue = string | number | boolean | Date | null | undefined;

/** How the text of a date column is written; parsing follows the one format inference chose. */
export type DateFormat = 'iso' | 'ymd' | 'mdy' | 'dmy';

/** A field inferred from sample data, with where its values come from in each record. */
export interface InferredField {
  /** A valid service field name (letters, digits, underscore), unique in the layer. */
  name: string;
  /** The original column header. */
  alias: string;
  type: EsriFieldType;
  /** Maximum characters, for string fields. */
  length?: number;
  /** The key of the column in a record (the original header). */
  source: string;
  /** The position of the column in a row array. */
  sourceIndex: number;
  /** For date fields read from text: the format the column is written in. */
  dateFormat?: DateFormat;
}

/** Geocoding roles of a field (`fields[].locationType` in analyze output). */
export type FieldLocationType = 'unknown' | 'Address' | 'City' | 'Region' | 'Postal' | 'CountryCode';

/** The field entry of a layer definition, as analyze and the layer resource return it. */
export interface LayerField {
  name: string;
  type: EsriFieldType;
  alias: string;
  sqlType: string;
  length?: number;
  nullable: boolean;
  editable: boolean;
  domain: null;
  defaultValue: null;
  locationType: FieldLocationType;
}
