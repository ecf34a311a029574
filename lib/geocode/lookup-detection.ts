import type { BoundaryKind, BoundaryLookup } from './boundary-lookup.js';

/** A column whose values name places the boundary lookup knows, found in a sample of rows. */
export interface LookupColumn {
  field: string;
  kind: BoundaryKind;
  /** Share of the sample's non-empty values matched (0–1). */
  matchedShare: number;
}

/** Column names that say what a column holds; they break ties between equally matched columns. */
const NAME_HINTS: Record<BoundaryKind, RegExp> = {
  country: /country|nation|land|pays|iso.?(3166|a2|a3|code)/i,
  region: /state|province|region|prov|territory/i,
  postal: /zip|postal|postcode|plz/i,
};

/** A column must match at least this share of its sampled values to be taken for a lookup column. */
const MIN_MATCHED_SHARE = 0.8;
const MIN_SCORE = 90;

/**
 * The column of a sample best published by boundary lookup (locationType "lookup"), with the kind of
 * place it names; undefined when no column matches well enough. Numbers-only columns are only read as
 * postal codes, never as ISO numeric country codes, which any count column would also resemble.
 */
export function detectLookupColumn(
  rows: readonly Record<string, unknown>[],
  fields: readonly string[],
  lookup: BoundaryLookup,
): LookupColumn | undefined {
  let best: (LookupColumn & { hinted: boolean }) | undefined;
  for (const field of fields) {
    const values = rows
      .map((row) => row[field])
      .filter((v) => v !== null && v !== undefined && String(v).trim() !== '');
    if (values.length === 0) continue;
    const numeric = values.every((v) => /^\d+$/.test(String(v).trim()));
    const kinds: BoundaryKind[] = numeric ? ['postal'] : ['country', 'region', 'postal'];
    for (const kind of kinds) {
      const matched = lookup.matchMany(values, { kind }).filter((m) => m && m.score >= MIN_SCORE).length;
      const candidate = {
        field,
        kind,
        matchedShare: matched / values.length,
        hinted: NAME_HINTS[kind].test(field),
      };
      if (candidate.matchedShare < MIN_MATCHED_SHARE) continue;
      if (
        !best ||
        candidate.matchedShare > best.matchedShare ||
        (candidate.matchedShare === best.matchedShare && candidate.hinted && !best.hinted)
      ) {
        best = candidate;
      }
    }
  }
  return best && { field: best.field, kind: best.kind, matchedShare: best.matchedShare };
}
