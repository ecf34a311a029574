/**
 * Groups: createGroup, group search, group info and members, addUsers, removeUsers, update, delete,
 * reassign, and joining and leaving (group-applications-routes.ts).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { type GroupSortField, type GroupTerms, listGroups } from '../../db/repositories/group-search.js';
import {
  addMember,
  deleteGroupRow,
  findGroup,
  findGroupByTitle,
  type GroupRow,
  groupMembersOf,
  groupsOfUser,
  insertGroup,
  type MemberType,
  membership,
  removeMember,
  transferGroup,
  updateGroup,
} from '../../db/repositories/groups.js';
import { findUser, type UserRow } from '../../db/repositories/users.js';
import { newId } from '../../infra/secrets.js';
import { canManageGroup, canSeeGroup } from '../../lib/access/groups.js';
import { isAdmin } from '../../lib/access/roles.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { requirePrivilege } from './access.js';
import { mountGroupApplicationRoutes } from './group-applications-routes.js';
import { groupJson } from './group-json.js';
import { commaList, readGroupProperties } from './group-params.js';
import { pageInfo, readPage, readSortOrder } from './paging.js';
import { parseSearchQuery, rangeBound, type SearchTerms } from './search-query.js';
import { userNotFound } from './users-router.js';

const GROUP_SORTS: GroupSortField[] = ['title', 'owner', 'created', 'modified'];

/** The group fields `q` may name. */
const GROUP_SEARCH_FIELDS = [
  'id',
  'owner',
  'title',
  'tags',
  'snippet',
  'description',
  'access',
  'isinvitationonly',
  'isviewonly',
  'orgid',
  'created',
  'modified',
];

function groupTerms(t: SearchTerms): GroupTerms {
  const field = (name: string) => t.fields.get(name) ?? [];
  return {
    words: t.words,
    ids: field('id'),
    owners: field('owner'),
    titles: field('title'),
    tags: field('tags'),
    snippets: field('snippet'),
    descriptions: field('description'),
    access: field('access'),
    isInvitationOnly: field('isinvitationonly'),
    isViewOnly: field('isviewonly'),
  };
}

const groupNotFound = () => badRequest('Group does not exist or is inaccessible.', [], 'COM_0003');

interface GroupContext {
  group: GroupRow;
  viewer: UserRow | undefined;
  memberType: MemberType | undefined;
}

/** The group of the path as the caller may see it; private groups are invisible to non-members. */
async function visibleGroup(c: Context<AppEnv>): Promise<GroupContext> {
  const { database } = c.get('deps');
  const group = await findGroup(database.db, c.req.param('groupId') ?? '');
  if (!group) throw groupNotFound();
  const viewer = c.get('user');
  const memberType = viewer ? await membership(database.db, group.id, viewer.username) : undefined;
  if (!canSeeGroup(group, viewer, memberType)) throw groupNotFound();
  return { group, viewer, memberType };
}

/** Owners and administrators of the organization change a group; group admins also manage members. */
async function managedGroup(
  c: Context<AppEnv>,
  groupAdminsToo: boolean,
): Promise<GroupContext & { viewer: UserRow }> {
  requireUser(c);
  const found = await visibleGroup(c);
  const viewer = found.viewer as UserRow;
  if (!canManageGroup(viewer, found.memberType, groupAdminsToo ? 'members' : 'group')) throw forbidden();
  return { ...found, viewer };
}

async function assertTitleFree(c: Context<AppEnv>, title: string, exceptId?: string) {
  const existing = await findGroupByTitle(c.get('deps').database.db, title);
  if (existing && existing.id !== exceptId) {
    throw badRequest('Unable to save the group.', [`A group with the title '${title}' already exists.`]);
  }
}

export function createGroupsRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/community/createGroup', async (c) => {
    const user = requirePrivilege(c, 'portal:user:createGroup');
    const properties = readGroupProperties(c.get('params'));
    if (!properties.title) throw badRequest('Invalid or missing input parameters.', ["'title' is required."]);
    await assertTitleFree(c, properties.title);
    const { database, now } = c.get('deps');
    const t = now();
    const group = await insertGroup(database.db, {
      ...properties,
      title: properties.title,
      id: newId(),
      owner: user.username,
      created: t,
      modified: t,
    });
    return sendJson(c, {
      success: true,
      group: groupJson(group, { username: user.username, memberType: 'owner' }),
    });
  });

  mountGroupApplicationRoutes(router, { visible: visibleGroup, managed: managedGroup });

  router.on(['GET', 'POST'], '/community/groups', async (c) => {
    const { database, portalId } = c.get('deps');
    const params = c.get('params');
    const page = readPage(params);
    const sortField = (params.get('sortField') || 'title').toLowerCase();
    if (!(GROUP_SORTS as string[]).includes(sortField)) {
      throw badRequest('Invalid or missing input parameters.', [
        `'sortField' must be one of ${GROUP_SORTS.join(', ')}.`,
      ]);
    }
    const q = parseSearchQuery(params.get('q'), GROUP_SEARCH_FIELDS);
    const ranges = (name: string) =>
      (q.ranges.get(name) ?? []).map((r) => ({ from: rangeBound(name, r.from), to: rangeBound(name, r.to) }));
    const viewer = c.get('user');
    // Groups of another organization are not here; excluding this one leaves nothing.
    const nothing =
      (q.fields.get('orgid') ?? []).some((id) => id !== portalId) ||
      (q.not.fields.get('orgid') ?? []).includes(portalId);
    const { total, rows } = await listGroups(database.db, {
      visibleTo: viewer ? { username: viewer.username, admin: isAdmin(viewer) } : 'anonymous',
      ...groupTerms(q),
      not: groupTerms(q.not),
      created: ranges('created'),
      modified: ranges('modified'),
      offset: nothing ? 0 : page.start - 1,
      limit: nothing ? 0 : page.num,
      sortField: sortField as GroupSortField,
      sortOrder: readSortOrder(params),
    });
    const memberships = new Map(
      viewer ? (await groupsOfUser(database.db, viewer.username)).map((g) => [g.id, g.memberType]) : [],
    );
    return sendJson(c, {
      query: params.get('q') ?? '',
      ...pageInfo(page, nothing ? 0 : total, rows.length),
      results: rows.map((g) =>
        groupJson(g, viewer ? { username: viewer.username, memberType: memberships.get(g.id) } : undefined),
      ),
    });
  });

  router.on(['GET', 'POST'], '/community/groups/:groupId', async (c) => {
    const { group, viewer, memberType } = await visibleGroup(c);
    return sendJson(c, groupJson(group, viewer ? { username: viewer.username, memberType } : undefined));
  });

  router.on(['GET', 'POST'], '/community/groups/:groupId/users', async (c) => {
    const { group } = await visibleGroup(c);
    const members = await groupMembersOf(c.get('deps').database.db, group.id);
    const of = (type: MemberType) => members.filter((m) => m.memberType === type).map((m) => m.username);
    return sendJson(c, { owner: group.owner, admins: [...of('owner'), ...of('admin')], users: of('member') });
  });

  router.post('/community/groups/:groupId/addUsers', async (c) => {
    const { group } = await managedGroup(c, true);
    const { database, now } = c.get('deps');
    const params = c.get('params');
    const notAdded: string[] = [];
    const requests: [string, MemberType][] = [
      ...commaList(params.get('users')).map((u) => [u, 'member'] as [string, MemberType]),
      ...commaList(params.get('admins')).map((u) => [u, 'admin'] as [string, MemberType]),
    ];
    if (requests.length === 0)
      throw badRequest('Invalid or missing input parameters.', ["'users' is required."]);
    for (const [name, type] of requests) {
      const user = await findUser(database.db, name);
      const current = user ? await membership(database.db, group.id, user.username) : undefined;
      if (!user || current === 'owner' || current === type) notAdded.push(name);
      else await addMember(database.db, group.id, user.username, type, now());
    }
    return sendJson(c, { notAdded });
  });

  router.post('/community/groups/:groupId/removeUsers', async (c) => {
    const { group } = await managedGroup(c, true);
    const { database } = c.get('deps');
    const names = [...commaList(c.get('params').get('users')), ...commaList(c.get('params').get('admins'))];
    if (names.length === 0)
      throw badRequest('Invalid or missing input parameters.', ["'users' is required."]);
    const notRemoved: string[] = [];
    for (const name of names) {
      const user = await findUser(database.db, name);
      const current = user ? await membership(database.db, group.id, user.username) : undefined;
      if (!user || !current || current === 'owner') notRemoved.push(name);
      else await removeMember(database.db, group.id, user.username);
    }
    return sendJson(c, { notRemoved });
  });

  router.post('/community/groups/:groupId/update', async (c) => {
    const { group } = await managedGroup(c, false);
    const properties = readGroupProperties(c.get('params'));
    if (properties.title) await assertTitleFree(c, properties.title, group.id);
    const { database, now } = c.get('deps');
    await updateGroup(database.db, group.id, { ...properties, modified: now() });
    return sendJson(c, { success: true, groupId: group.id });
  });

  router.post('/community/groups/:groupId/delete', async (c) => {
    const { group } = await managedGroup(c, false);
    await deleteGroupRow(c.get('deps').database.db, group.id);
    return sendJson(c, { success: true, groupId: group.id });
  });

  router.post('/community/groups/:groupId/reassign', async (c) => {
    const { group } = await managedGroup(c, false);
    const { database, now } = c.get('deps');
    const targetName = c.get('params').get('targetUsername');
    if (!targetName)
      throw badRequest('Invalid or missing input parameters.', ["'targetUsername' is required."]);
    const target = await findUser(database.db, targetName);
    if (!target) throw userNotFound(targetName);
    if (target.disabled)
      throw badRequest('Unable to reassign the group.', [`User '${target.username}' is disabled.`]);
    await transferGroup(database.db, group, target.username, now());
    return sendJson(c, { success: true, groupId: group.id });
  });

  return router;
}
