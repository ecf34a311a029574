/**
 * The Esri field types a layer can declare, and how each is stored in a PostgreSQL feature table.
 * `kind` is the value family the where compiler type-checks against.
 */
export type EsriFieldType =
  | 'esriFieldTypeOID'
  | 'esriFieldTypeString'
  | 'esriFieldTypeInteger'
  | 'esriFieldTypeSmallInteger'
  | 'esriFieldTypeBigInteger'
  | 'esriFieldTypeDouble'
  | 'esriFieldTypeSingle'
  | 'esriFieldTypeDate'
  | 'esriFieldTypeDateOnly'
  | 'esriFieldTypeTimeOnly'
  | 'esriFieldTypeTimestampOffset'
  | 'esriFieldTypeGlobalID'
  | 'esriFieldTypeGUID'
  | 'esriFieldTypeGeometry';

/** Value families of where-clause expressions; `timestamp` is an instant, `date` a calendar day. */
export type ValueKind = 'number' | 'string' | 'timestamp' | 'date' | 'time' | 'geometry';

export interface FieldStorage {
  /** PostgreSQL column type; null when the value is not kept in its own column (the shape). */
  sqlType: string | null;
  kind: ValueKind;
  /** Integer families compare with integer parameters so btree indexes stay usable. */
  integer: boolean;
}

export const FIELD_STORAGE: Readonly<Record<EsriFieldType, FieldStorage>> = {
  esriFieldTypeOID: { sqlType: 'integer', kind: 'number', integer: true },
  esriFieldTypeInteger: { sqlType: 'integer', kind: 'number', integer: true },
  esriFieldTypeSmallInteger: { sqlType: 'smallint', kind: 'number', integer: true },
  esriFieldTypeBigInteger: { sqlType: 'bigint', kind: 'number', integer: true },
  esriFieldTypeDouble: { sqlType: 'double precision', kind: 'number', integer: false },
  esriFieldTypeSingle: { sqlType: 'real', kind: 'number', integer: false },
  esriFieldTypeString: { sqlType: 'text', kind: 'string', integer: false },
  esriFieldTypeDate: { sqlType: 'timestamptz', kind: 'timestamp', integer: false },
  esriFieldTypeDateOnly: { sqlType: 'date', kind: 'date', integer: false },
  esriFieldTypeTimeOnly: { sqlType: 'time', kind: 'time', integer: false },
  // The offset itself is not kept: values are normalised to the instant they denote.
  esriFieldTypeTimestampOffset: { sqlType: 'timestamptz', kind: 'timestamp', integer: false },
  esriFieldTypeGlobalID: { sqlType: 'text', kind: 'string', integer: false },
  esriFieldTypeGUID: { sqlType: 'text', kind: 'string', integer: false },
  esriFieldTypeGeometry: { sqlType: null, kind: 'geometry', integer: false },
};

export const ESRI_FIELD_TYPES = Object.keys(FIELD_STORAGE) as EsriFieldType[];

export const isEsriFieldType = (value: string): value is EsriFieldType => Object.hasOwn(FIELD_STORAGE, value);

/** Fields whose values leave the server as epoch milliseconds. */
export const isInstantField = (type: EsriFieldType): boolean => FIELD_STORAGE[type].kind === 'timestamp';
