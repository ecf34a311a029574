/**
 * The portal's `q` syntax, reduced to what clients send: free words and quoted phrases (matched against
 * title, tags, snippet and description) and `field:value` terms, joined by AND. Boolean words and
 * parentheses that query builders add are dropped; OR between terms of one field widens that field.
 */
export interface SearchQuery {
  words: string[];
  /** Field name (lower case) to the values any of which may match. */
  fields: Map<string, string[]>;
}

const TOKEN = /\(|\)|"[^"]*"|[^\s()"]+(?:"[^"]*")?/g;

function unquote(s: string): string {
  return s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1) : s;
}

export function parseSearchQuery(q: string | undefined): SearchQuery {
  const query: SearchQuery = { words: [], fields: new Map() };
  for (const raw of (q ?? '').match(TOKEN) ?? []) {
    if (raw === '(' || raw === ')' || /^(AND|OR|NOT)$/.test(raw)) continue;
    const colon = raw.indexOf(':');
    if (colon > 0 && !raw.startsWith('"')) {
      const field = raw.slice(0, colon).toLowerCase();
      const value = unquote(raw.slice(colon + 1)).trim();
      if (value === '') continue;
      query.fields.set(field, [...(query.fields.get(field) ?? []), value]);
      continue;
    }
    const word = unquote(raw).trim();
    if (word !== '' && word !== '*') query.words.push(word);
  }
  return query;
}
