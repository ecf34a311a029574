/**
 * Esri field types for the column types SQLite-based files declare. GeoPackage (OGC 12-128r18 §1.1.1.1.3)
 * names INTEGER for 64-bit, MEDIUMINT for 32-bit, SMALLINT/TINYINT for 16/8-bit integers, BOOLEAN,
 * FLOAT/REAL/DOUBLE, TEXT(n), DATE, DATETIME, BLOB; GDAL's SQLite driver writes BIGINT for 64-bit,
 * INTEGER for 32-bit, INTEGER_INT16, INTEGER_BOOLEAN, FLOAT, VARCHAR(n) and TIMESTAMP.
 */
import type { EsriFieldType } from './field-types.js';

export interface SqliteFieldType {
  type: EsriFieldType;
  /** Characters a text column declares (TEXT(30), VARCHAR(30)); absent when unbounded. */
  length?: number;
}

/** The Esri type of a declared column type; null for binary columns, which a feature table cannot hold. */
export function sqliteFieldType(declared: string, geopackage: boolean): SqliteFieldType | null {
  const text = declared.trim().toUpperCase();
  const sized = /^(?:TEXT|VARCHAR|CHAR|NVARCHAR|CHARACTER)\s*\(\s*(\d+)\s*\)$/.exec(text);
  if (sized) return { type: 'esriFieldTypeString', length: Number(sized[1]) };
  switch (text) {
    case 'INTEGER':
      return { type: geopackage ? 'esriFieldTypeBigInteger' : 'esriFieldTypeInteger' };
    case 'BIGINT':
    case 'INT64':
      return { type: 'esriFieldTypeBigInteger' };
    case 'INT':
    case 'MEDIUMINT':
      return { type: 'esriFieldTypeInteger' };
    case 'SMALLINT':
    case 'TINYINT':
    case 'INTEGER_INT16':
    case 'BOOLEAN':
    case 'INTEGER_BOOLEAN':
      return { type: 'esriFieldTypeSmallInteger' };
    case 'FLOAT':
      // GeoPackage FLOAT is 32-bit; GDAL's SQLite FLOAT is SQLite's 64-bit REAL.
      return { type: geopackage ? 'esriFieldTypeSingle' : 'esriFieldTypeDouble' };
    case 'FLOAT_SINGLE':
      return { type: 'esriFieldTypeSingle' };
    case 'REAL':
    case 'DOUBLE':
    case 'NUMERIC':
    case 'DECIMAL':
      return { type: 'esriFieldTypeDouble' };
    case 'DATE':
    case 'DATETIME':
    case 'TIMESTAMP':
      return { type: 'esriFieldTypeDate' };
    case 'BLOB':
      return null;
    default:
      // SQLite's affinity rules (§3.1 of its datatype page) for any other name.
      if (text.includes('INT')) return { type: 'esriFieldTypeInteger' };
      if (/CHAR|CLOB|TEXT/.test(text) || text === '') return { type: 'esriFieldTypeString' };
      if (text.includes('BLOB')) return null;
      if (/REAL|FLOA|DOUB/.test(text)) return { type: 'esriFieldTypeDouble' };
      return { type: 'esriFieldTypeString' };
  }
}

/** Base geometry type (1 point … 7 collection, 0 any) of a declared name such as MULTIPOLYGON or POINTZ. */
export function sqliteGeometryBase(name: string): number {
  const n = name
    .trim()
    .toUpperCase()
    .replace(/\s*(ZM|Z|M)$/, '');
  const bases: Record<string, number> = {
    POINT: 1,
    LINESTRING: 2,
    POLYGON: 3,
    MULTIPOINT: 4,
    MULTILINESTRING: 5,
    MULTIPOLYGON: 6,
    GEOMETRYCOLLECTION: 7,
    GEOMETRY: 0,
  };
  return bases[n] ?? 0;
}
