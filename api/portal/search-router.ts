/**
 * search: items the caller may see, filtered by `q` (words, field terms, NOT and ranges), paged and
 * sorted. `group:<id>` lists a group's content only for callers who may see the group; for others the
 * group has no content, so neither the term nor its negation tells anything about it.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { findGroup, membership } from '../../db/repositories/groups.js';
import { type ItemSortField, type ItemTerms, listItems } from '../../db/repositories/items.js';
import { canSeeGroup } from '../../lib/access/groups.js';
import { itemControl } from '../../lib/access/items.js';
import { isAdmin } from '../../lib/access/roles.js';
import { badRequest } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { itemJson } from './item-json.js';
import { pageInfo, readPage, readSortOrder } from './paging.js';
import { parseSearchQuery, rangeBound, type SearchTerms } from './search-query.js';

const SORTS: ItemSortField[] = ['title', 'created', 'modified', 'type', 'owner', 'size'];

/** The item fields `q` may name. */
export const ITEM_SEARCH_FIELDS = [
  'id',
  'owner',
  'title',
  'type',
  'typekeywords',
  'tags',
  'access',
  'group',
  'orgid',
  'snippet',
  'description',
  'created',
  'modified',
  'uploaded',
];

/** Search parameters this portal does not implement: refused rather than ignored. */
const UNSUPPORTED = ['bbox', 'categories', 'categoryFilters', 'filter'];

/** A group id nobody's group has: what a group the caller may not see is searched as. */
const NO_GROUP = '';

async function visibleGroupIds(c: Context<AppEnv>, ids: string[]): Promise<string[]> {
  const db = c.get('deps').database.db;
  const viewer = c.get('user');
  const out: string[] = [];
  for (const id of ids) {
    const group = await findGroup(db, id);
    const memberType = group && viewer ? await membership(db, group.id, viewer.username) : undefined;
    out.push(group && canSeeGroup(group, viewer, memberType) ? group.id : NO_GROUP);
  }
  return out;
}

async function itemTerms(c: Context<AppEnv>, t: SearchTerms, extra: ItemTerms = {}): Promise<ItemTerms> {
  const field = (name: string) => t.fields.get(name) ?? [];
  return {
    words: t.words,
    ids: field('id'),
    owners: [...field('owner'), ...(extra.owners ?? [])],
    types: [...field('type'), ...(extra.types ?? [])],
    titles: field('title'),
    tags: field('tags'),
    access: field('access'),
    groups: await visibleGroupIds(c, field('group')),
    typeKeywords: field('typekeywords'),
    snippets: field('snippet'),
    descriptions: field('description'),
  };
}

export function createSearchRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.on(['GET', 'POST'], '/search', async (c) => {
    const { database, portalId } = c.get('deps');
    const params = c.get('params');
    const page = readPage(params);
    const sortField = (params.get('sortField') || 'created').toLowerCase();
    if (!(SORTS as string[]).includes(sortField)) {
      throw badRequest('Invalid or missing input parameters.', [
        `'sortField' must be one of ${SORTS.join(', ')}.`,
      ]);
    }
    for (const name of UNSUPPORTED) {
      if (params.get(name)?.trim())
        throw badRequest('Invalid or missing input parameters.', [
          `'${name}' is not supported by this portal's search.`,
        ]);
    }
    const q = parseSearchQuery(params.get('q'), ITEM_SEARCH_FIELDS);
    const also = (name: string) => (params.get(name) ? [params.get(name) as string] : []);
    const ranges = (name: string) =>
      (q.ranges.get(name) ?? []).map((r) => ({ from: rangeBound(name, r.from), to: rangeBound(name, r.to) }));
    const viewer = c.get('user');
    // An orgid of another organization matches nothing here; excluding this one leaves nothing either.
    const orgIds = q.fields.get('orgid') ?? [];
    const notOrg = q.not.fields.get('orgid') ?? [];
    const nothing = orgIds.some((id) => id !== portalId) || notOrg.includes(portalId);
    const { total, rows } = await listItems(database.db, {
      visibleTo: viewer ? { username: viewer.username, admin: isAdmin(viewer) } : 'anonymous',
      ...(await itemTerms(c, q, { owners: also('owner'), types: also('type') })),
      not: await itemTerms(c, q.not),
      created: [...ranges('created'), ...ranges('uploaded')],
      modified: ranges('modified'),
      offset: nothing ? 0 : page.start - 1,
      limit: nothing ? 0 : page.num,
      sortField: sortField as ItemSortField,
      sortOrder: readSortOrder(params),
    });
    return sendJson(c, {
      query: params.get('q') ?? '',
      ...pageInfo(page, nothing ? 0 : total, rows.length),
      results: rows.map((i) => itemJson(i, portalId, itemControl(i, viewer))),
    });
  });

  return router;
}
