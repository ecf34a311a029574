import type { CatalogField } from './field-catalog.js';
import type { EsriFieldType } from './field-types.js';

/** A `fields` entry of a query response. */
export interface ResponseField {
  name: string;
  type: EsriFieldType;
  alias: string;
  sqlType: 'sqlTypeOther';
  length?: number;
  domain: null;
  defaultValue: null;
}

const HAS_LENGTH = new Set<EsriFieldType>([
  'esriFieldTypeString',
  'esriFieldTypeGUID',
  'esriFieldTypeGlobalID',
]);
const DEFAULT_LENGTH: Partial<Record<EsriFieldType, number>> = {
  esriFieldTypeGUID: 38,
  esriFieldTypeGlobalID: 38,
};

export function responseField(
  field: Pick<CatalogField, 'name' | 'type' | 'alias' | 'length'>,
): ResponseField {
  const out: ResponseField = {
    name: field.name,
    type: field.type,
    alias: field.alias ?? field.name,
    sqlType: 'sqlTypeOther',
    domain: null,
    defaultValue: null,
  };
  const length = field.length ?? DEFAULT_LENGTH[field.type];
  if (HAS_LENGTH.has(field.type) && length !== undefined) out.length = length;
  return out;
}
