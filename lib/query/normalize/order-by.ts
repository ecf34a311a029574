import type { FieldCatalog } from '../field-catalog.js';
import type { OrderBy } from '../normalized-query.js';
import { attributeField, splitNames } from './field-list.js';
import { fail, present } from './parameter-values.js';

/**
 * `orderByFields`: `"F1 DESC, F2"`; each entry a field and an optional ASC or DESC. With
 * outStatistics an entry may also name a statistic's output (`outputNames`).
 */
export function normalizeOrderBy(
  value: string | undefined,
  fields: FieldCatalog,
  outputNames: string[] = [],
): OrderBy[] {
  const text = present(value);
  if (text === undefined) return [];
  return splitNames(text).map((entry) => {
    const words = entry.split(/\s+/);
    if (words.length > 2)
      throw fail('orderByFields', `'${entry}' is not a field name followed by ASC or DESC`);
    const direction = (words[1] ?? 'ASC').toUpperCase();
    if (direction !== 'ASC' && direction !== 'DESC') {
      throw fail('orderByFields', `'${words[1]}' is not ASC or DESC`);
    }
    const output = outputNames.find((n) => n.toLowerCase() === words[0].toLowerCase());
    return { field: output ?? attributeField('orderByFields', fields, words[0]).name, direction };
  });
}
