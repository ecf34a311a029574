import { internalError } from '../errors.js';
import type { EsriFieldType } from './field-types.js';

/** One attribute field of a layer: the name clients use and the physical column that stores it. */
export interface CatalogField {
  /** Esri field name, as declared in the layer JSON. */
  name: string;
  /** Physical column, already a safe identifier `[a-z_][a-z0-9_]*`; it is still quoted in SQL. */
  column: string;
  type: EsriFieldType;
  alias?: string;
  /** Declared length of string fields. */
  length?: number;
}

/**
 * Case-insensitive field lookup (clients send `objectid`, `OBJECTID` and `ObjectId` alike).
 * `all()` lists the fields in declaration order, for `outFields=*` and the response's `fields`.
 */
export interface FieldCatalog {
  lookup(name: string): CatalogField | undefined;
  all(): readonly CatalogField[];
}

const SAFE_COLUMN = /^[a-z_][a-z0-9_]*$/;

export function createFieldCatalog(fields: readonly CatalogField[]): FieldCatalog {
  const byName = new Map<string, CatalogField>();
  for (const field of fields) {
    // A column that is not a plain identifier is a bug upstream, never a client error.
    if (!SAFE_COLUMN.test(field.column))
      throw internalError('Unable to complete operation.', ['Invalid column name.']);
    const key = field.name.toLowerCase();
    if (!byName.has(key)) byName.set(key, field);
  }
  const list = [...fields];
  return {
    lookup: (name) => byName.get(name.toLowerCase()),
    all: () => list,
  };
}
