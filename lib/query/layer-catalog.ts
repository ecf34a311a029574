import type { EsriGeometryType } from '../geometry/types.js';
import type { FieldCatalog } from './field-catalog.js';

/**
 * What the query engine knows about one feature layer's table. The table has an `objectid`
 * integer column, a `bbox box` column with a GiST index and a `shape text` column holding the Esri
 * JSON geometry in the storage spatial reference, plus one column per attribute field.
 */
export interface LayerCatalog {
  /** Physical table name, already a safe identifier. */
  table: string;
  /** Esri name of the object id field, e.g. `OBJECTID`. */
  objectIdField: string;
  /** Every field of the layer, the object id field (column `objectid`) included. */
  fields: FieldCatalog;
  /** The layer's cap on features per response; requests ask for at most this many. */
  maxRecordCount: number;
  /** The caps for `resultType=standard` and `resultType=tile` (the layer JSON's standard/tileMaxRecordCount). */
  resultTypeMaxRecordCount?: { standard: number; tile: number };
  hasGeometry: boolean;
  /** Lets the planner skip the exact spatial test where the bbox test is already exact (points). */
  geometryType?: EsriGeometryType;
  /** The layer's shapes carry z (third ordinate) and m (after z): hasZ/hasM of its definition. */
  hasZ?: boolean;
  hasM?: boolean;
  /** Time-aware layers: the Date fields (Esri names) `time` filters on; the end is optional. */
  timeInfo?: { startField: string; endField: string | null };
}
