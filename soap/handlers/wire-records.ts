/**
 * Layer fields and query rows in SOAP form: Fields with a Shape field carrying the GeometryDef,
 * Records whose values carry their XML Schema type, and PropertySets of formatted values for
 * Identify and Find.
 */
import type { EsriGeometry, SpatialReference as EsriSpatialReference } from '../../lib/geometry/types.js';
import type { CatalogField } from '../../lib/query/field-catalog.js';
import type { EsriFieldType } from '../../lib/query/field-types.js';
import type { FeatureRow } from '../../lib/query/row-mapping.js';
import { toWireValue } from '../../lib/query/wire-values.js';
import type {
  AnyValue,
  Field,
  geoFieldType,
  geoGeometryType,
  PropertySet,
  RecordSet,
} from '../schema/generated-types.js';
import { toSoapGeometry, toSoapSpatialReference } from './wire-geometry.js';

const SOAP_FIELD_TYPES: Record<string, geoFieldType> = {
  esriFieldTypeOID: 'geoFieldTypeOID',
  esriFieldTypeInteger: 'geoFieldTypeInteger',
  esriFieldTypeSmallInteger: 'geoFieldTypeSmallInteger',
  esriFieldTypeBigInteger: 'geoFieldTypeDouble',
  esriFieldTypeDouble: 'geoFieldTypeDouble',
  esriFieldTypeSingle: 'geoFieldTypeSingle',
  esriFieldTypeString: 'geoFieldTypeString',
  esriFieldTypeDate: 'geoFieldTypeDate',
  esriFieldTypeDateOnly: 'geoFieldTypeDate',
  esriFieldTypeTimestampOffset: 'geoFieldTypeDate',
  esriFieldTypeTimeOnly: 'geoFieldTypeString',
  esriFieldTypeGlobalID: 'geoFieldTypeGlobalID',
  esriFieldTypeGUID: 'geoFieldTypeGUID',
  esriFieldTypeBlob: 'geoFieldTypeBlob',
  esriFieldTypeXML: 'geoFieldTypeXML',
};

export const soapFieldType = (type: string): geoFieldType => SOAP_FIELD_TYPES[type] ?? 'geoFieldTypeString';

export const SHAPE_FIELD = 'Shape';

export function soapField(f: CatalogField): Field {
  const type = soapFieldType(f.type);
  return {
    Name: f.name,
    Type: type,
    IsNullable: type !== 'geoFieldTypeOID',
    Length: f.length ?? (type === 'geoFieldTypeString' ? 256 : type === 'geoFieldTypeDate' ? 8 : 4),
    Precision: 0,
    Scale: 0,
    Required: type === 'geoFieldTypeOID',
    Editable: type !== 'geoFieldTypeOID',
    AliasName: f.alias ?? f.name,
  };
}

const SOAP_GEOMETRY_TYPES: Record<string, geoGeometryType> = {
  esriGeometryPoint: 'geoGeometryPoint',
  esriGeometryMultipoint: 'geoGeometryMultipoint',
  esriGeometryPolyline: 'geoGeometryPolyline',
  esriGeometryPolygon: 'geoGeometryPolygon',
};

export function shapeField(geometryType: string, sr: EsriSpatialReference): Field {
  return {
    Name: SHAPE_FIELD,
    Type: 'geoFieldTypeGeometry',
    IsNullable: true,
    Length: 0,
    Precision: 0,
    Scale: 0,
    Required: true,
    Editable: true,
    GeometryDef: {
      AvgNumPoints: 0,
      GeometryType: SOAP_GEOMETRY_TYPES[geometryType] ?? 'geoGeometryPolygon',
      HasM: false,
      HasZ: false,
      SpatialReference: toSoapSpatialReference(sr),
    },
    AliasName: SHAPE_FIELD,
  };
}

/** A value with the XML Schema type its field calls for (doubles stay doubles when whole). */
export function soapValue(value: unknown, type: EsriFieldType): AnyValue {
  const wire = toWireValue(value, type);
  if (wire === null || wire === undefined) return null;
  const soapType = soapFieldType(type);
  if (soapType === 'geoFieldTypeDate') {
    const d = typeof wire === 'number' ? new Date(wire) : new Date(`${String(wire)}T00:00:00Z`);
    return Number.isNaN(d.getTime()) ? String(wire) : d;
  }
  if (soapType === 'geoFieldTypeDouble' || soapType === 'geoFieldTypeSingle') {
    return typeof wire === 'number' ? { $xsd: 'double', value: wire } : String(wire);
  }
  if (soapType === 'geoFieldTypeSmallInteger' && typeof wire === 'number')
    return { $xsd: 'short', value: wire };
  if (typeof wire === 'number' || typeof wire === 'string' || typeof wire === 'boolean') return wire;
  return String(wire);
}

export interface RecordSetInput {
  columns: readonly CatalogField[];
  rows: readonly FeatureRow[];
  /** Set when the records carry their shapes. */
  shape?: { geometryType: string; sr: EsriSpatialReference };
}

export function recordSet({ columns, rows, shape }: RecordSetInput): RecordSet {
  const fields = columns.map(soapField);
  if (shape) fields.push(shapeField(shape.geometryType, shape.sr));
  return {
    Fields: { FieldArray: fields },
    Records: rows.map((row) => ({
      Values: [
        ...columns.map((c) => soapValue(row.attrs[c.name], c.type)),
        ...(shape ? [row.shape ? (toSoapGeometry(row.shape as EsriGeometry) as AnyValue) : null] : []),
      ],
    })),
  };
}

/** A value as Identify and Find show it: text, dates in ISO form, nulls as "Null" like the real server. */
export function formattedValue(value: unknown, type: EsriFieldType): string {
  const wire = toWireValue(value, type);
  if (wire === null || wire === undefined) return 'Null';
  if (soapFieldType(type) === 'geoFieldTypeDate' && typeof wire === 'number')
    return new Date(wire).toISOString();
  return String(wire);
}

export function propertySet(entries: readonly [string, AnyValue][]): PropertySet {
  return { PropertyArray: entries.map(([Key, Value]) => ({ Key, Value })) };
}

/** Field → formatted value, keyed by alias unless the client asked for field names. */
export function featureProperties(
  columns: readonly CatalogField[],
  row: FeatureRow,
  byName = false,
): PropertySet {
  return propertySet(
    columns.map((c) => [byName ? c.name : (c.alias ?? c.name), formattedValue(row.attrs[c.name], c.type)]),
  );
}
