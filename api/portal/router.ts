/**
 * The portal beyond sign-in: users, groups, items, search, relationships, collaborations and security,
 * under sharing/rest, and the portal administration API under portaladmin.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env.js';
import { createPortalAdminRouter } from '../portaladmin/create-user.js';
import { createCollaborationsRouter } from './collaborations-router.js';
import { createGroupsRouter } from './groups-router.js';
import { createItemsRouter } from './items-router.js';
import { createOrgAdminRouter } from './org-admin-router.js';
import { createRelationshipsRouter } from './relationships-router.js';
import { createSearchRouter } from './search-router.js';
import { createSharingRouter } from './sharing-router.js';
import { createUserContentRouter } from './user-content-router.js';
import { createUsersRouter } from './users-router.js';

export function createPortalRouter(): Hono<AppEnv> {
  const sharing = new Hono<AppEnv>();
  // Routes with fixed words come before the folder-id patterns they could be mistaken for.
  sharing.route('/', createItemsRouter());
  sharing.route('/', createRelationshipsRouter());
  sharing.route('/', createSharingRouter());
  sharing.route('/', createUserContentRouter());
  sharing.route('/', createSearchRouter());
  sharing.route('/', createUsersRouter());
  sharing.route('/', createGroupsRouter());
  sharing.route('/', createCollaborationsRouter());
  sharing.route('/', createOrgAdminRouter());

  const router = new Hono<AppEnv>();
  router.route('/sharing/rest', sharing);
  router.route('/portaladmin', createPortalAdminRouter());
  return router;
}
