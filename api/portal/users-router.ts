/** Users: community/users/{u} (info, update, delete), community/users (search) and portals/{id}/users. */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { groupsOfUser } from '../../db/repositories/groups.js';
import {
  findUser,
  listUsers,
  type UserRow,
  type UserSortField,
  updateUser,
} from '../../db/repositories/users.js';
import { newPasswordHash, rememberReplacedPassword } from '../../infra/passwords.js';
import { verifyPassword } from '../../infra/secrets.js';
import { isAdmin } from '../../lib/access/roles.js';
import { badRequest, forbidden, GeoError, tokenRequired } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { assertThisPortal, requireSelfOrAdmin } from './access.js';
import { groupJson } from './group-json.js';
import { pageInfo, readPage, readSortOrder } from './paging.js';
import { parseSearchQuery } from './search-query.js';
import { userJson } from './user-json.js';
import { readProfile } from './user-profile.js';
import { removalBlocker, removeUser } from './user-removal.js';

const methods = ['GET', 'POST'];
const USER_SORTS: UserSortField[] = ['username', 'fullname', 'created', 'modified', 'role'];

export const userNotFound = (username: string) =>
  badRequest('User not found.', [`User '${username}' does not exist.`], 'COM_0019');

async function targetUser(c: Context<AppEnv>): Promise<UserRow> {
  const username = c.req.param('username') ?? '';
  const user = await findUser(c.get('deps').database.db, username);
  if (!user) throw userNotFound(username);
  return user;
}

/** The user resource; the user and administrators see private fields and the user's groups. */
async function userResource(c: Context<AppEnv>, user: UserRow) {
  const { database, portalId } = c.get('deps');
  const viewer = requireUser(c);
  const full = viewer.username === user.username || isAdmin(viewer);
  const json = userJson(user, portalId, full);
  if (!full) return json;
  const groups = await groupsOfUser(database.db, user.username);
  return {
    ...json,
    groups: groups.map((g) => groupJson(g, { username: user.username, memberType: g.memberType })),
  };
}

function sortField(c: Context<AppEnv>): UserSortField {
  const raw = c.get('params').get('sortField')?.toLowerCase() ?? 'username';
  if (!(USER_SORTS as string[]).includes(raw)) {
    throw badRequest('Invalid or missing input parameters.', [
      `'sortField' must be one of ${USER_SORTS.join(', ')}.`,
    ]);
  }
  return raw as UserSortField;
}

export function createUsersRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.on(methods, '/portals/:portalId/users', async (c) => {
    assertThisPortal(c);
    requireUser(c);
    const page = readPage(c.get('params'));
    const { total, rows } = await listUsers(c.get('deps').database.db, {
      words: [],
      usernames: [],
      roles: [],
      offset: page.start - 1,
      limit: page.num,
      sortField: sortField(c),
      sortOrder: readSortOrder(c.get('params')),
    });
    const { portalId } = c.get('deps');
    const viewer = requireUser(c);
    return sendJson(c, {
      ...pageInfo(page, total, rows.length),
      users: rows.map((u) => userJson(u, portalId, isAdmin(viewer) || u.username === viewer.username)),
    });
  });

  router.on(methods, '/community/users', async (c) => {
    const viewer = requireUser(c);
    const params = c.get('params');
    const page = readPage(params);
    const query = parseSearchQuery(params.get('q'));
    const { total, rows } = await listUsers(c.get('deps').database.db, {
      words: query.words,
      usernames: query.fields.get('username') ?? [],
      roles: query.fields.get('role') ?? [],
      offset: page.start - 1,
      limit: page.num,
      sortField: sortField(c),
      sortOrder: readSortOrder(params),
    });
    const { portalId } = c.get('deps');
    return sendJson(c, {
      query: params.get('q') ?? '',
      ...pageInfo(page, total, rows.length),
      results: rows.map((u) => userJson(u, portalId, isAdmin(viewer) || u.username === viewer.username)),
    });
  });

  router.on(methods, '/community/users/:username', async (c) => {
    requireUser(c);
    return sendJson(c, await userResource(c, await targetUser(c)));
  });

  router.post('/community/users/:username/update', async (c) => {
    const { database, now } = c.get('deps');
    const params = c.get('params');
    const caller = c.get('user');
    const password = params.get('password');
    const oldPassword = params.get('oldPassword');
    // Without a token only a password change proven by the old password is allowed: the way out of expiry.
    if (!caller && !(password && oldPassword)) throw tokenRequired();
    const target = caller ? await targetUser(c) : await findUser(database.db, c.req.param('username'));
    if (caller && caller.username !== target?.username && !isAdmin(caller)) throw forbidden();
    const changes: Partial<UserRow> = caller ? readProfile(params) : {};
    if (password !== undefined) {
      const self = !caller || caller.username === target?.username;
      if (self) {
        const proven = target && oldPassword ? await verifyPassword(oldPassword, target.passwordHash) : false;
        if (!proven) {
          throw new GeoError({
            code: 400,
            message: 'Unable to change the password.',
            details: ['oldPassword is missing or does not match the current password.'],
          });
        }
      }
      if (!target) throw userNotFound(c.req.param('username'));
      changes.passwordHash = await newPasswordHash(database.db, password, target);
      changes.passwordChangedAt = now();
      await rememberReplacedPassword(database.db, target.username, target.passwordHash, now());
    }
    if (!target) throw userNotFound(c.req.param('username'));
    if (
      changes.fullName === undefined &&
      (changes.firstName !== undefined || changes.lastName !== undefined)
    ) {
      changes.fullName =
        `${changes.firstName ?? target.firstName} ${changes.lastName ?? target.lastName}`.trim();
    }
    await updateUser(database.db, target.username, { ...changes, modified: now() });
    return sendJson(c, { success: true, username: target.username });
  });

  router.post('/community/users/:username/delete', async (c) => {
    requireSelfOrAdmin(c, c.req.param('username'));
    const user = await targetUser(c);
    const { database } = c.get('deps');
    const blocker = await removalBlocker(database.db, user);
    if (blocker) throw badRequest('Unable to delete user.', [blocker]);
    if (!(await removeUser(database.db, user))) {
      throw badRequest('Unable to delete user.', [`User '${user.username}' owns content added meanwhile.`]);
    }
    return sendJson(c, { success: true, username: user.username });
  });

  return router;
}
