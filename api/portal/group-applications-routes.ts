/**
 * Joining and leaving groups: `join` files a request (refused for invitation-only groups and for
 * members), group administrators list the requests (`applications`) and `accept` or `decline` them;
 * `leave` takes any member but the owner out of the group.
 */
import type { Context, Hono } from 'hono';
import {
  acceptApplication,
  applicationsOf,
  applyToGroup,
  removeApplication,
} from '../../db/repositories/group-applications.js';
import { type GroupRow, type MemberType, removeMember } from '../../db/repositories/groups.js';
import { findUser, type UserRow } from '../../db/repositories/users.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';

interface GroupAccess {
  visible: (c: Context<AppEnv>) => Promise<{ group: GroupRow; memberType: MemberType | undefined }>;
  managed: (c: Context<AppEnv>, groupAdminsToo: boolean) => Promise<{ group: GroupRow; viewer: UserRow }>;
}

const refused = (message: string, detail: string) => badRequest(message, [detail]);

export function mountGroupApplicationRoutes(router: Hono<AppEnv>, access: GroupAccess): void {
  router.post('/community/groups/:groupId/join', async (c) => {
    const user = requireUser(c);
    const { group, memberType } = await access.visible(c);
    if (memberType)
      throw refused('Unable to join the group.', `User '${user.username}' is already a member of the group.`);
    if (group.isInvitationOnly) {
      throw forbidden('Unable to join the group.', [
        'This group is invitation only: its administrators add members.',
      ]);
    }
    const { database, now } = c.get('deps');
    await applyToGroup(database.db, group.id, user.username, c.get('params').get('comments') ?? '', now());
    return sendJson(c, { success: true, groupId: group.id });
  });

  router.post('/community/groups/:groupId/leave', async (c) => {
    const user = requireUser(c);
    const { group, memberType } = await access.visible(c);
    if (!memberType)
      throw refused('Unable to leave the group.', `User '${user.username}' is not a member of the group.`);
    if (memberType === 'owner')
      throw refused('Unable to leave the group.', 'The owner cannot leave the group; reassign it first.');
    await removeMember(c.get('deps').database.db, group.id, user.username);
    return sendJson(c, { success: true, groupId: group.id });
  });

  router.on(['GET', 'POST'], '/community/groups/:groupId/applications', async (c) => {
    const { group } = await access.managed(c, true);
    const applications = await applicationsOf(c.get('deps').database.db, group.id);
    return sendJson(c, {
      applications: applications.map((a) => ({
        username: a.username,
        fullName: a.fullName,
        received: a.created,
        comments: a.comments,
      })),
    });
  });

  for (const decision of ['accept', 'decline'] as const) {
    router.post(`/community/groups/:groupId/applications/:username/${decision}`, async (c) => {
      const { group } = await access.managed(c, true);
      const { database, now } = c.get('deps');
      const named = c.req.param('username') ?? '';
      const username = (await findUser(database.db, named))?.username ?? named;
      const done =
        decision === 'accept'
          ? await acceptApplication(database.db, group.id, username, now())
          : await removeApplication(database.db, group.id, username);
      if (!done)
        throw refused(
          'Unable to complete the request.',
          `User '${named}' has not applied to join the group.`,
        );
      return sendJson(c, { success: true, username, groupId: group.id });
    });
  }
}
