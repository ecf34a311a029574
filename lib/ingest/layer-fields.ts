import type { EsriFieldType, FieldLocationType, InferredField, LayerField } from './field-types.js';
import type { AddressRole } from './location-fields.js';

/** The sqlType a layer reports per field type (values of Esri's sqlType enumeration). */
const SQL_TYPES: Partial<Record<EsriFieldType, string>> = {
  esriFieldTypeOID: 'sqlTypeInteger',
  esriFieldTypeString: 'sqlTypeNVarchar',
  esriFieldTypeSmallInteger: 'sqlTypeSmallInt',
  esriFieldTypeInteger: 'sqlTypeInteger',
  esriFieldTypeBigInteger: 'sqlTypeBigInt',
  esriFieldTypeDouble: 'sqlTypeDouble',
  esriFieldTypeSingle: 'sqlTypeReal',
  esriFieldTypeDate: 'sqlTypeTimestamp2',
  esriFieldTypeDateOnly: 'sqlTypeDate',
  esriFieldTypeTimeOnly: 'sqlTypeTime',
  esriFieldTypeGUID: 'sqlTypeGUID',
  esriFieldTypeGlobalID: 'sqlTypeGUID',
};

export const sqlTypeOf = (type: EsriFieldType): string => SQL_TYPES[type] ?? 'sqlTypeOther';

/**
 * Layer field entries for inferred fields, as analyze returns them in layerInfo.fields: nullable
 * and editable, no domain or default, and each address column tagged with its geocoding role.
 * `addressFields` maps roles to source column names, as detectLocationFields returns them.
 */
export function toLayerFields(
  fields: readonly InferredField[],
  addressFields: Partial<Record<AddressRole, string>> = {},
): LayerField[] {
  const roleBySource = new Map<string, FieldLocationType>();
  for (const [role, column] of Object.entries(addressFields)) {
    if (column) roleBySource.set(column, role as FieldLocationType);
  }
  return fields.map((f) => {
    const out: LayerField = {
      name: f.name,
      type: f.type,
      alias: f.alias,
      sqlType: sqlTypeOf(f.type),
      nullable: true,
      editable: true,
      domain: null,
      defaultValue: null,
      locationType: roleBySource.get(f.source) ?? roleBySource.get(f.name) ?? 'unknown',
    };
    if (f.type === 'esriFieldTypeString') out.length = f.length ?? 256;
    return out;
  });
}
