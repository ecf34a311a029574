/**
 * The portal's `q` syntax as clients send it: free words and quoted phrases (matched against the
 * default fields) and `field:value` terms, joined by AND; OR between terms of one field widens that
 * field. `NOT term`, `NOT (terms)` and `-term` exclude what the term matches. Ranges
 * `field:[from TO to]` give inclusive bounds on date fields. Each surface names the fields it knows;
 * any other field is refused (a term silently dropped would widen the answer unnoticed).
 */
import { badRequest } from '../../lib/errors.js';

export interface SearchTerms {
  words: string[];
  /** Field name (lower case) to the values any of which may match. */
  fields: Map<string, string[]>;
}

export interface SearchQuery extends SearchTerms {
  /** Terms whose matches are excluded, each on its own. */
  not: SearchTerms;
  /** Field name (lower case) to inclusive ranges; bounds as written (`*` for open). */
  ranges: Map<string, { from: string; to: string }[]>;
}

const TOKEN = /\(|\)|-?[^\s()":[]+:\[[^\]]*\]|-?"[^"]*"|[^\s()"]+(?:"[^"]*")?/g;

function unquote(s: string): string {
  return s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1) : s;
}

const emptyTerms = (): SearchTerms => ({ words: [], fields: new Map() });

const invalid = (detail: string) => badRequest('Invalid or missing input parameters.', [detail]);

/**
 * Parses `q`; `knownFields` are the field names (lower case) the caller's surface supports (any field
 * is taken when it is not given).
 */
export function parseSearchQuery(q: string | undefined, knownFields?: readonly string[]): SearchQuery {
  const query: SearchQuery = { ...emptyTerms(), not: emptyTerms(), ranges: new Map() };
  let negateNext = false;
  // Parentheses opened by NOT: terms inside them are excluded.
  const depthNegated: boolean[] = [];
  for (let raw of (q ?? '').match(TOKEN) ?? []) {
    if (raw === '(') {
      depthNegated.push(negateNext || depthNegated.at(-1) === true);
      negateNext = false;
      continue;
    }
    if (raw === ')') {
      depthNegated.pop();
      continue;
    }
    if (/^(AND|OR)$/.test(raw)) continue;
    if (raw === 'NOT') {
      negateNext = true;
      continue;
    }
    let negated = negateNext || depthNegated.at(-1) === true;
    negateNext = false;
    if (raw.startsWith('-') && raw.length > 1) {
      negated = true;
      raw = raw.slice(1);
    }
    const into = negated ? query.not : query;
    const colon = raw.indexOf(':');
    if (colon > 0 && !raw.startsWith('"')) {
      const field = raw.slice(0, colon).toLowerCase();
      if (knownFields && !knownFields.includes(field))
        throw invalid(`Field '${field}' cannot be searched here; use ${knownFields.join(', ')}.`);
      const value = unquote(raw.slice(colon + 1)).trim();
      const range = /^\[\s*(\S+)\s+TO\s+(\S+)\s*\]$/.exec(value);
      if (range) {
        if (negated) throw invalid(`A range of '${field}' cannot be negated.`);
        query.ranges.set(field, [...(query.ranges.get(field) ?? []), { from: range[1], to: range[2] }]);
        continue;
      }
      if (value === '') continue;
      into.fields.set(field, [...(into.fields.get(field) ?? []), value]);
      continue;
    }
    const word = unquote(raw).trim();
    if (word !== '' && word !== '*') into.words.push(word);
  }
  return query;
}

/** A range bound as epoch milliseconds (ArcGIS writes them zero-padded), or undefined for `*`. */
export function rangeBound(field: string, bound: string): number | undefined {
  if (bound === '*') return undefined;
  const n = Number(bound);
  // Whole milliseconds within JavaScript's exact integers, which the database's bigint holds too.
  if (!Number.isSafeInteger(n))
    throw invalid(`The range of '${field}' needs epoch milliseconds, not '${bound}'.`);
  return n;
}
