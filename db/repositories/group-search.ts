/**
 * Group search (community/groups): the groups a caller may see, public ones to anyone, org ones to
 * signed-in users, private ones to their members and administrators, filtered by the search terms
 * (each list matching any of its values; `not` terms leave their matches out).
 */
import { and, asc, desc, eq, gte, ilike, lte, not, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
import { groups } from '../schema/groups.js';
import type { GroupRow } from './groups.js';
import { escapeLike } from './users.js';

export interface GroupTerms {
  words?: string[];
  ids?: string[];
  owners?: string[];
  titles?: string[];
  tags?: string[];
  snippets?: string[];
  descriptions?: string[];
  access?: string[];
  /** 'true' or 'false'. */
  isInvitationOnly?: string[];
  isViewOnly?: string[];
}

export type GroupSortField = 'title' | 'owner' | 'created' | 'modified';

export interface GroupListing extends GroupTerms {
  visibleTo: { username: string; admin: boolean } | 'anonymous';
  not?: GroupTerms;
  created?: { from?: number; to?: number }[];
  modified?: { from?: number; to?: number }[];
  offset: number;
  limit: number;
  sortField: GroupSortField;
  sortOrder: 'asc' | 'desc';
}

const bool = (v: string) => v.trim().toLowerCase() === 'true';

const TERM_MATCH = {
  ids: (v: string) => eq(groups.id, v),
  owners: (v: string) => sql`lower(${groups.owner}) = lower(${v})`,
  titles: (v: string) => ilike(groups.title, `%${escapeLike(v)}%`),
  tags: (v: string) =>
    sql`exists (select 1 from jsonb_array_elements_text(${groups.tags}) t where lower(t) = lower(${v}))`,
  snippets: (v: string) => ilike(groups.snippet, `%${escapeLike(v)}%`),
  descriptions: (v: string) => ilike(groups.description, `%${escapeLike(v)}%`),
  access: (v: string) => eq(groups.access, v.toLowerCase()),
  isInvitationOnly: (v: string) => eq(groups.isInvitationOnly, bool(v)),
  isViewOnly: (v: string) => eq(groups.isViewOnly, bool(v)),
} satisfies Record<Exclude<keyof GroupTerms, 'words'>, (v: string) => SQL>;

const TERM_KEYS = Object.keys(TERM_MATCH) as (keyof typeof TERM_MATCH)[];

/** A free word: in the id, title, description, snippet, tags or owner (the default group fields). */
function wordMatch(word: string): SQL {
  const like = `%${escapeLike(word)}%`;
  return or(
    eq(groups.id, word),
    ilike(groups.title, like),
    ilike(groups.description, like),
    ilike(groups.snippet, like),
    sql`${groups.tags}::text ilike ${like}`,
    ilike(groups.owner, like),
  ) as SQL;
}

const anyOf = (values: string[] | undefined, match: (v: string) => SQL) =>
  values && values.length > 0 ? or(...values.map(match)) : undefined;

function rangeMatch(
  column: typeof groups.created | typeof groups.modified,
  r: { from?: number; to?: number },
) {
  const parts = [
    r.from !== undefined ? gte(column, r.from) : undefined,
    r.to !== undefined ? lte(column, r.to) : undefined,
  ].filter((p): p is SQL => p !== undefined);
  return parts.length > 0 ? and(...parts) : undefined;
}

const SORT = { title: groups.title, owner: groups.owner, created: groups.created, modified: groups.modified };

export async function listGroups(
  db: Database,
  q: GroupListing,
): Promise<{ total: number; rows: GroupRow[] }> {
  const conditions: (SQL | undefined)[] = [];
  if (q.visibleTo === 'anonymous') conditions.push(eq(groups.access, 'public'));
  else if (!q.visibleTo.admin) {
    const member = sql`exists (select 1 from group_members gm where gm.group_id = ${groups.id}
      and gm.username = ${q.visibleTo.username})`;
    conditions.push(or(eq(groups.access, 'public'), eq(groups.access, 'org'), member));
  }
  for (const word of q.words ?? []) conditions.push(wordMatch(word));
  for (const key of TERM_KEYS) conditions.push(anyOf(q[key], TERM_MATCH[key]));
  for (const word of q.not?.words ?? []) conditions.push(not(wordMatch(word)));
  for (const key of TERM_KEYS) for (const v of q.not?.[key] ?? []) conditions.push(not(TERM_MATCH[key](v)));
  for (const r of q.created ?? []) conditions.push(rangeMatch(groups.created, r));
  for (const r of q.modified ?? []) conditions.push(rangeMatch(groups.modified, r));
  const present = conditions.filter((c): c is SQL => c !== undefined);
  const where = present.length > 0 ? and(...present) : undefined;
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(groups).where(where);
  const column = SORT[q.sortField];
  const rows = await db
    .select()
    .from(groups)
    .where(where)
    .orderBy(q.sortOrder === 'desc' ? desc(column) : asc(column), asc(groups.id))
    .offset(q.offset)
    .limit(q.limit);
  return { total: n, rows };
}
