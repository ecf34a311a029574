import {
  and,
  asc,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNull,
  lte,
  ne,
  not,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { normalizeItemId as canonical } from '../../lib/access/items.js';
import type { Database } from '../client.js';
import { itemRelationships, items } from '../schema/items.js';
import { escapeLike } from './users.js';

export type ItemRow = typeof items.$inferSelect;
export type NewItem = typeof items.$inferInsert;
export type RelationshipRow = typeof itemRelationships.$inferSelect;

export async function insertItem(db: Database, item: NewItem): Promise<ItemRow> {
  const rows = await db.insert(items).values(item).returning();
  return rows[0]!;
}

/** Item ids are compared case-insensitively: every id is stored in lower case and looked up so. */
export async function findItem(db: Database, id: string): Promise<ItemRow | undefined> {
  const rows = await db
    .select()
    .from(items)
    .where(eq(items.id, canonical(id)))
    .limit(1);
  return rows[0];
}

export async function updateItem(db: Database, id: string, changes: Partial<NewItem>): Promise<void> {
  await db.update(items).set(changes).where(eq(items.id, id));
}

/** Deletes the row; its relationships go with it (foreign keys cascade). */
export async function deleteItemRow(db: Database, id: string): Promise<void> {
  await db.delete(items).where(eq(items.id, id));
}

/** Adds a relationship; adding the same one twice is a no-op (callers that must reject duplicates check first). */
export async function insertRelationship(
  db: Database,
  rel: typeof itemRelationships.$inferInsert,
): Promise<void> {
  await db
    .insert(itemRelationships)
    .values({
      ...rel,
      originItemId: canonical(rel.originItemId),
      destinationItemId: canonical(rel.destinationItemId),
    })
    .onConflictDoNothing();
}

export interface RelationshipKey {
  originItemId: string;
  destinationItemId: string;
  relationshipType: string;
}

const keyMatches = (key: RelationshipKey) =>
  and(
    eq(itemRelationships.originItemId, canonical(key.originItemId)),
    eq(itemRelationships.destinationItemId, canonical(key.destinationItemId)),
    eq(itemRelationships.relationshipType, key.relationshipType),
  );

export async function findRelationship(
  db: Database,
  key: RelationshipKey,
): Promise<RelationshipRow | undefined> {
  const rows = await db.select().from(itemRelationships).where(keyMatches(key)).limit(1);
  return rows[0];
}

export async function deleteRelationshipRow(db: Database, key: RelationshipKey): Promise<void> {
  await db.delete(itemRelationships).where(keyMatches(key));
}

/** Relationships in which an item takes part, in either direction. */
export async function relationshipsOf(db: Database, id: string): Promise<RelationshipRow[]> {
  const itemId = canonical(id);
  return db
    .select()
    .from(itemRelationships)
    .where(or(eq(itemRelationships.originItemId, itemId), eq(itemRelationships.destinationItemId, itemId)));
}

/** Items related to `itemId`: forward follows origin → destination, reverse the other way. */
export async function relatedItemRows(
  db: Database,
  itemId: string,
  direction: 'forward' | 'reverse',
  types: string[],
): Promise<ItemRow[]> {
  const forward = direction === 'forward';
  const from = forward ? itemRelationships.originItemId : itemRelationships.destinationItemId;
  const to = forward ? itemRelationships.destinationItemId : itemRelationships.originItemId;
  const rows = await db
    .select({ item: items })
    .from(itemRelationships)
    .innerJoin(items, eq(items.id, to))
    .where(
      and(
        eq(from, canonical(itemId)),
        types.length > 0 ? inArray(itemRelationships.relationshipType, types) : undefined,
      ),
    )
    .orderBy(asc(itemRelationships.created));
  return rows.map((r) => r.item);
}

/** Another item of the owner's folder already holds this file name. */
/** The id of the owner's item with file name `name` in the folder (case-insensitively), but `exceptId`. */
export async function itemWithFileName(
  db: Database,
  owner: string,
  folderId: string | null,
  name: string,
  exceptId?: string,
): Promise<string | undefined> {
  const rows = await db
    .select({ id: items.id })
    .from(items)
    .where(
      and(
        eq(items.owner, owner),
        folderId ? eq(items.folderId, folderId) : isNull(items.folderId),
        sql`lower(${items.name}) = lower(${name})`,
        exceptId ? ne(items.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return rows[0]?.id;
}

export async function fileNameTaken(
  db: Database,
  owner: string,
  folderId: string | null,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  return (await itemWithFileName(db, owner, folderId, name, exceptId)) !== undefined;
}

export type ItemSortField = 'title' | 'created' | 'modified' | 'type' | 'owner' | 'size';
const ITEM_SORT = {
  title: items.title,
  created: items.created,
  modified: items.modified,
  type: items.type,
  owner: items.owner,
  size: items.dataSize,
} as const;

export interface ItemFilter {
  /**
   * Who is looking: admins see everything, members their own and org or public items, anonymous callers
   * public ones; 'everyone' is for callers that have already checked access (an owner's own listing).
   */
  visibleTo: { username: string; admin: boolean } | 'anonymous' | 'everyone';
  words?: string[];
  ids?: string[];
  owners?: string[];
  types?: string[];
  titles?: string[];
  tags?: string[];
  access?: string[];
  /** Items shared with any of these groups. */
  groups?: string[];
  typeKeywords?: string[];
  snippets?: string[];
  descriptions?: string[];
  /** Inclusive epoch-millisecond ranges (either end open). */
  created?: { from?: number; to?: number }[];
  modified?: { from?: number; to?: number }[];
  /** Terms whose matches are left out, each on its own. */
  not?: ItemTerms;
  /** Only the root folder (null) or one folder of the owner. */
  folderId?: string | null;
}

/** The search terms of a filter, each list matching any of its values. */
export type ItemTerms = Pick<
  ItemFilter,
  | 'words'
  | 'ids'
  | 'owners'
  | 'types'
  | 'titles'
  | 'tags'
  | 'access'
  | 'groups'
  | 'typeKeywords'
  | 'snippets'
  | 'descriptions'
>;

export interface ItemListing extends ItemFilter {
  offset: number;
  limit: number;
  sortField: ItemSortField;
  sortOrder: 'asc' | 'desc';
}

const anyOf = (values: string[] | undefined, match: (v: string) => SQL) =>
  values && values.length > 0 ? or(...values.map(match)) : undefined;

const jsonbHas = (column: typeof items.tags | typeof items.typeKeywords, v: string) =>
  sql`exists (select 1 from jsonb_array_elements_text(${column}) t where lower(t) = lower(${v}))`;

/** How one value of each search term matches an item. */
const TERM_MATCH = {
  ids: (v: string) => eq(items.id, canonical(v)),
  owners: (v: string) => sql`lower(${items.owner}) = lower(${v})`,
  types: (v: string) => sql`lower(${items.type}) = lower(${v})`,
  titles: (v: string) => ilike(items.title, `%${escapeLike(v)}%`),
  tags: (v: string) => jsonbHas(items.tags, v),
  access: (v: string) => eq(items.access, v.toLowerCase()),
  groups: (v: string) =>
    sql`exists (select 1 from item_groups g where g.item_id = ${items.id} and g.group_id = ${v})`,
  typeKeywords: (v: string) => jsonbHas(items.typeKeywords, v),
  snippets: (v: string) => ilike(items.snippet, `%${escapeLike(v)}%`),
  descriptions: (v: string) => ilike(items.description, `%${escapeLike(v)}%`),
} satisfies Record<Exclude<keyof ItemTerms, 'words'>, (v: string) => SQL>;

const TERM_KEYS = Object.keys(TERM_MATCH) as (keyof typeof TERM_MATCH)[];

/** A free word: in the title, snippet, description, tags or type keywords. */
function wordMatch(word: string): SQL {
  const like = `%${escapeLike(word)}%`;
  return or(
    ilike(items.title, like),
    ilike(items.snippet, like),
    ilike(items.description, like),
    sql`${items.tags}::text ilike ${like}`,
    sql`${items.typeKeywords}::text ilike ${like}`,
  ) as SQL;
}

function rangeMatch(
  column: typeof items.created | typeof items.modified,
  r: { from?: number; to?: number },
): SQL | undefined {
  const parts = [
    r.from !== undefined ? gte(column, r.from) : undefined,
    r.to !== undefined ? lte(column, r.to) : undefined,
  ];
  const present = parts.filter((p): p is SQL => p !== undefined);
  return present.length > 0 ? and(...present) : undefined;
}

function itemConditions(f: ItemFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (f.visibleTo === 'anonymous') conditions.push(eq(items.access, 'public'));
  else if (f.visibleTo !== 'everyone' && !f.visibleTo.admin) {
    const viaGroup = sql`exists (select 1 from item_groups ig join group_members gm on gm.group_id = ig.group_id
      where ig.item_id = ${items.id} and gm.username = ${f.visibleTo.username})`;
    conditions.push(
      or(eq(items.owner, f.visibleTo.username), inArray(items.access, ['org', 'public']), viaGroup),
    );
  }
  for (const word of f.words ?? []) conditions.push(wordMatch(word));
  for (const key of TERM_KEYS) conditions.push(anyOf(f[key], TERM_MATCH[key]));
  for (const range of f.created ?? []) conditions.push(rangeMatch(items.created, range));
  for (const range of f.modified ?? []) conditions.push(rangeMatch(items.modified, range));
  for (const word of f.not?.words ?? []) conditions.push(not(wordMatch(word)));
  for (const key of TERM_KEYS) for (const v of f.not?.[key] ?? []) conditions.push(not(TERM_MATCH[key](v)));
  if (f.folderId !== undefined)
    conditions.push(f.folderId === null ? isNull(items.folderId) : eq(items.folderId, f.folderId));
  const present = conditions.filter((c): c is SQL => c !== undefined);
  return present.length > 0 ? and(...present) : undefined;
}

export async function listItems(db: Database, q: ItemListing): Promise<{ total: number; rows: ItemRow[] }> {
  const where = itemConditions(q);
  const column = ITEM_SORT[q.sortField];
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(items).where(where);
  const rows = await db
    .select()
    .from(items)
    .where(where)
    .orderBy(q.sortOrder === 'desc' ? desc(column) : asc(column), asc(items.id))
    .offset(q.offset)
    .limit(q.limit);
  return { total: n, rows };
}

/** Relationships a user created; removed with the user, since only their creator could delete them. */
export async function deleteRelationshipsCreatedBy(db: Database, username: string): Promise<void> {
  await db.delete(itemRelationships).where(eq(itemRelationships.createdBy, username));
}
