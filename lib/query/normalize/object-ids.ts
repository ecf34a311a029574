import { fail, present, readJson } from './parameter-values.js';

/** At most this many ids in one request; ids-only answers are paged by clients in smaller lists. */
export const MAX_OBJECT_IDS = 100_000;

/**
 * `objectIds`: a comma-separated list (`1,2, 3`), or a JSON array as some scripts send it.
 * Duplicates are dropped, the order of first appearance kept.
 */
export function normalizeObjectIds(value: string | undefined): number[] | null {
  const text = present(value);
  if (text === undefined) return null;
  const items: unknown[] = text.startsWith('[')
    ? asArray(readJson('objectIds', text))
    : text.split(',').map((s) => s.trim());
  const ids = new Set<number>();
  for (const item of items) {
    const n =
      typeof item === 'number'
        ? item
        : typeof item === 'string' && /^\d+$/.test(item)
          ? Number(item)
          : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 0 || n > 2_147_483_647) {
      throw fail('objectIds', `'${String(item)}' is not an object id`);
    }
    ids.add(n);
  }
  if (items.length > MAX_OBJECT_IDS) throw fail('objectIds', `more than ${MAX_OBJECT_IDS} ids`);
  return [...ids];
}

function asArray(v: unknown): unknown[] {
  if (!Array.isArray(v)) throw fail('objectIds', 'expected a comma-separated list or a JSON array of ids');
  return v;
}
