/** search: items the caller may see, filtered by `q` (words and field:value terms), paged and sorted. */
import { Hono } from 'hono';
import { type ItemSortField, listItems } from '../../db/repositories/items.js';
import { itemControl } from '../../lib/access/items.js';
import { isAdmin } from '../../lib/access/roles.js';
import { badRequest } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { itemJson } from './item-json.js';
import { pageInfo, readPage, readSortOrder } from './paging.js';
import { parseSearchQuery } from './search-query.js';

const SORTS: ItemSortField[] = ['title', 'created', 'modified', 'type', 'owner', 'size'];

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
    const q = parseSearchQuery(params.get('q'));
    const field = (name: string) => q.fields.get(name) ?? [];
    const also = (name: string) => (params.get(name) ? [params.get(name) as string] : []);
    const viewer = c.get('user');
    // An orgid of another organization matches nothing here.
    const otherOrg = field('orgid').some((id) => id !== portalId);
    const { total, rows } = await listItems(database.db, {
      visibleTo: viewer ? { username: viewer.username, admin: isAdmin(viewer) } : 'anonymous',
      words: q.words,
      ids: field('id'),
      owners: [...field('owner'), ...also('owner')],
      types: [...field('type'), ...also('type')],
      titles: field('title'),
      tags: field('tags'),
      access: field('access'),
      offset: otherOrg ? 0 : page.start - 1,
      limit: otherOrg ? 0 : page.num,
      sortField: sortField as ItemSortField,
      sortOrder: readSortOrder(params),
    });
    return sendJson(c, {
      query: params.get('q') ?? '',
      ...pageInfo(page, otherOrg ? 0 : total, rows.length),
      results: rows.map((i) => itemJson(i, portalId, itemControl(i, viewer))),
    });
  });

  return router;
}
