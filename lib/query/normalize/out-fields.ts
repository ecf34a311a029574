import type { FieldCatalog } from '../field-catalog.js';
import { FIELD_STORAGE } from '../field-types.js';
import type { OutFields } from '../normalized-query.js';
import { attributeField, splitNames } from './field-list.js';
import { present } from './parameter-values.js';

/**
 * `outFields`: `*` or a list of field names, answered with canonical names in the order asked
 * (`*`: declaration order). Absent means no attribute besides the object id, which feature
 * responses always carry (the plan adds it). The geometry field in a list is skipped:
 * returnGeometry governs the shape.
 */
export function normalizeOutFields(value: string | undefined, fields: FieldCatalog): OutFields {
  const text = present(value);
  if (text === undefined) return { all: false, names: [] };
  const names = splitNames(text);
  if (names.includes('*')) {
    const all = fields.all().filter((f) => FIELD_STORAGE[f.type].kind !== 'geometry');
    return { all: true, names: all.map((f) => f.name) };
  }
  const picked: string[] = [];
  for (const name of names) {
    const field = fields.lookup(name);
    if (field && FIELD_STORAGE[field.type].kind === 'geometry') continue;
    const canonical = attributeField('outFields', fields, name).name;
    if (!picked.includes(canonical)) picked.push(canonical);
  }
  return { all: false, names: picked };
}

/** `groupByFieldsForStatistics`: a list of field names. */
export function normalizeGroupBy(value: string | undefined, fields: FieldCatalog): string[] {
  const text = present(value);
  if (text === undefined) return [];
  const names: string[] = [];
  for (const name of splitNames(text)) {
    const canonical = attributeField('groupByFieldsForStatistics', fields, name).name;
    if (!names.includes(canonical)) names.push(canonical);
  }
  return names;
}
