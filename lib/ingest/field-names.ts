/**
 * Turns column headers into valid service field names the way hosted publishing does: letters,
 * digits and underscores only, not starting with a digit, not a reserved or SQL keyword, unique
 * regardless of case, and short enough to be a PostgreSQL identifier.
 */

/** Names the service itself owns, and SQL words a where clause could not use as a bare column. */
const RESERVED = new Set(
  [
    'objectid fid oid shape shape__area shape__length shape_area shape_length globalid',
    'add all alter and any as asc between by case cast check column constraint create cross current',
    'default delete desc distinct drop else end escape except exists false for foreign from full grant',
    'group having in index inner insert intersect into is join key left like limit not null offset on or',
    'order outer primary references right select set some table then to true union unique update user',
    'using values when where with',
  ]
    .join(' ')
    .split(' '),
);

/** PostgreSQL truncates identifiers at 63 bytes; ASCII names make that 63 characters. */
export const MAX_FIELD_NAME_LENGTH = 63;

export interface FieldNameOptions {
  maxLength?: number;
  /** Names already taken (OBJECTID and the like) besides the reserved list. */
  taken?: readonly string[];
}

/** A header without a byte-order mark or surrounding blanks: what the alias keeps. */
export const cleanHeader = (header: string): string => header.replace(/^\uFEFF/, '').trim();

/** One header as a valid name, before uniqueness is settled. */
export function sanitizeFieldName(
  header: string,
  position: number,
  maxLength = MAX_FIELD_NAME_LENGTH,
): string {
  let name = cleanHeader(header)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents: Café → Cafe
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '');
  if (name === '') name = `Field${position + 1}`;
  if (/^[0-9]/.test(name)) name = `F${name}`;
  if (RESERVED.has(name.toLowerCase())) name = `${name}_`;
  return name.slice(0, maxLength);
}

/** Valid, unique names for a list of headers, in order; duplicates get _1, _2… suffixes. */
export function sanitizeFieldNames(headers: readonly string[], options: FieldNameOptions = {}): string[] {
  const maxLength = options.maxLength ?? MAX_FIELD_NAME_LENGTH;
  const used = new Set((options.taken ?? []).map((n) => n.toLowerCase()));
  return headers.map((header, i) => {
    const base = sanitizeFieldName(header, i, maxLength);
    let name = base;
    for (let n = 1; used.has(name.toLowerCase()) || RESERVED.has(name.toLowerCase()); n++) {
      const suffix = base.endsWith('_') ? String(n) : `_${n}`;
      name = base.slice(0, maxLength - suffix.length) + suffix;
    }
    used.add(name.toLowerCase());
    return name;
  });
}
