import type { CatalogField, FieldCatalog } from '../field-catalog.js';
import { FIELD_STORAGE } from '../field-types.js';
import { fail } from './parameter-values.js';

/** A layer field named in a parameter, found case-insensitively; the geometry field is not one. */
export function attributeField(parameter: string, fields: FieldCatalog, name: string): CatalogField {
  const field = fields.lookup(name);
  if (!field) throw fail(parameter, `unknown field '${name}'`);
  if (FIELD_STORAGE[field.type].kind === 'geometry') {
    throw fail(parameter, `'${field.name}' is the geometry field; use returnGeometry instead`);
  }
  return field;
}

/** Comma-separated names, blanks skipped. */
export const splitNames = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
