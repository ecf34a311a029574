/**
 * The neutral output form of the SQL compiler: raw SQL text and bound parameters, in order.
 * The db layer turns a fragment into drizzle `sql` (strings raw, params bound); values are never
 * concatenated into text, so no input can change the shape of a statement.
 */
export type SqlChunk = string | { param: unknown };

export interface SqlFragment {
  chunks: SqlChunk[];
}

export const fragment = (...parts: Array<SqlChunk | SqlFragment>): SqlFragment => {
  const chunks: SqlChunk[] = [];
  for (const part of parts) {
    if (typeof part === 'object' && part !== null && 'chunks' in part) chunks.push(...part.chunks);
    else chunks.push(part);
  }
  return { chunks: mergeText(chunks) };
};

export const raw = (text: string): SqlFragment => ({ chunks: [text] });

export const param = (value: unknown): SqlFragment => ({ chunks: [{ param: value }] });

/** A parameter with an explicit type, so PostgreSQL never has to guess it inside an expression. */
export const typedParam = (value: unknown, sqlType: string): SqlFragment =>
  fragment({ param: value }, `::${sqlType}`);

export const join = (parts: SqlFragment[], separator: string): SqlFragment => {
  const out: Array<SqlChunk | SqlFragment> = [];
  parts.forEach((part, i) => {
    if (i > 0) out.push(separator);
    out.push(part);
  });
  return fragment(...out);
};

export const wrap = (inner: SqlFragment, open = '(', close = ')'): SqlFragment =>
  fragment(open, inner, close);

/** A PostgreSQL identifier, double-quoted; callers pass names already checked as safe. */
export const identifier = (name: string): SqlFragment => raw(quoteIdentifier(name));

export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export const isEmpty = (f: SqlFragment): boolean => f.chunks.every((c) => c === '');

/** Adjacent text chunks are merged so fragments compare and render predictably. */
function mergeText(chunks: SqlChunk[]): SqlChunk[] {
  const out: SqlChunk[] = [];
  for (const chunk of chunks) {
    const last = out[out.length - 1];
    if (typeof chunk === 'string') {
      if (chunk === '') continue;
      if (typeof last === 'string') out[out.length - 1] = last + chunk;
      else out.push(chunk);
    } else out.push(chunk);
  }
  return out;
}

/** `$n` text and the parameter list, as a driver without a template tag would take them. */
export function toPositional(f: SqlFragment): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  let text = '';
  for (const chunk of f.chunks) {
    if (typeof chunk === 'string') text += chunk;
    else {
      params.push(chunk.param);
      text += `$${params.length}`;
    }
  }
  return { text, params };
}
