import type { PbfWriter as Pbf } from 'pbf';
import type { EsriFieldType } from '../query/field-types.js';

/**
 * Fields and attribute values of the ArcGIS FeatureCollection protocol buffer
 * (esriPBuffer.FeatureCollectionPBuffer, published by Esri in github.com/Esri/arcgis-pbf). Each value
 * is written in the member its field type calls for; a null is a Value with no member set, which
 * every reader (the Maps SDK, rest-js) takes as null.
 */
export const PBF_FIELD_TYPE: Readonly<Record<EsriFieldType, number>> = {
  esriFieldTypeSmallInteger: 0,
  esriFieldTypeInteger: 1,
  esriFieldTypeSingle: 2,
  esriFieldTypeDouble: 3,
  esriFieldTypeString: 4,
  esriFieldTypeDate: 5,
  esriFieldTypeOID: 6,
  esriFieldTypeGeometry: 7,
  esriFieldTypeGUID: 10,
  esriFieldTypeGlobalID: 11,
  esriFieldTypeBigInteger: 13,
  esriFieldTypeDateOnly: 14,
  esriFieldTypeTimeOnly: 15,
  esriFieldTypeTimestampOffset: 16,
};

/** SQLType sqlTypeOther, as the JSON answer's `sqlType`. */
export const SQL_TYPE_OTHER = 16;

/** Value members by number: string 1, float 2, double 3, sint32 4, uint32 5, sint64 8. */
const Member = { String: 1, Float: 2, Double: 3, SInt: 4, UInt: 5, SInt64: 8 } as const;
type Member = (typeof Member)[keyof typeof Member];

const MEMBER: Readonly<Record<EsriFieldType, Member>> = {
  esriFieldTypeSmallInteger: Member.SInt,
  esriFieldTypeInteger: Member.SInt,
  esriFieldTypeSingle: Member.Float,
  esriFieldTypeDouble: Member.Double,
  esriFieldTypeString: Member.String,
  // Instants leave as epoch milliseconds, as in JSON.
  esriFieldTypeDate: Member.SInt64,
  esriFieldTypeTimestampOffset: Member.SInt64,
  esriFieldTypeOID: Member.UInt,
  esriFieldTypeBigInteger: Member.SInt64,
  esriFieldTypeGUID: Member.String,
  esriFieldTypeGlobalID: Member.String,
  esriFieldTypeDateOnly: Member.String,
  esriFieldTypeTimeOnly: Member.String,
  esriFieldTypeGeometry: Member.String,
};

/** Writes one Value message body: `value` is the JSON answer's wire value for a field of `type`. */
export function writeValue(type: EsriFieldType, value: unknown, pbf: Pbf): void {
  if (value === null || value === undefined) return;
  const member = MEMBER[type];
  if (typeof value !== 'number' || member === Member.String)
    pbf.writeStringField(Member.String, String(value));
  else if (member === Member.Float) pbf.writeFloatField(Member.Float, value);
  else if (member === Member.UInt && Number.isInteger(value) && value >= 0 && value <= 0xffffffff)
    pbf.writeVarintField(Member.UInt, value);
  else if (member === Member.SInt && Number.isInteger(value) && Math.abs(value) <= 0x7fffffff)
    pbf.writeSVarintField(Member.SInt, value);
  else if (member === Member.SInt64 && Number.isSafeInteger(value))
    pbf.writeSVarintField(Member.SInt64, value);
  // Doubles, and integers outside their member's range, which a double still carries exactly.
  else pbf.writeDoubleField(Member.Double, value);
}
