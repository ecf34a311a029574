/** The HTML popup of a feature, as a hosted layer's default popup shows it: a table of its fields. */
import type { CatalogField } from '../../lib/query/field-catalog.js';
import type { FeatureRow } from '../../lib/query/row-mapping.js';
import { formattedValue } from './wire-records.js';

const escapeHtml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function htmlPopup(title: string, columns: readonly CatalogField[], row: FeatureRow): string {
  const rows = columns
    .map(
      (c) =>
        `<tr><th>${escapeHtml(c.alias ?? c.name)}</th><td>${escapeHtml(formattedValue(row.attrs[c.name], c.type))}</td></tr>`,
    )
    .join('');
  return `<html><body><h3>${escapeHtml(title)}</h3><table>${rows}</table></body></html>`;
}
