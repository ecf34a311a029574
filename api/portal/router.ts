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

/**
 * The routers sharing `sharing/rest`. Their routes are disjoint (no path two of them answer; folder ids
 * are 32 hex digits, so no fixed word is taken for one), so the order they are mounted in does not
 * matter: test/unit/api/route-overlap.test.ts checks it.
 */
export function sharingRouters(): Hono<AppEnv>[] {
  return [
    createItemsRouter(),
    createRelationshipsRouter(),
    createSharingRouter(),
    createUserContentRouter(),
    createSearchRouter(),
    createUsersRouter(),
    createGroupsRouter(),
    createCollaborationsRouter(),
    createOrgAdminRouter(),
  ];
}

export function createPortalRouter(): Hono<AppEnv> {
  const sharing = new Hono<AppEnv>();
  for (const r of sharingRouters()) sharing.route('/', r);

  const router = new Hono<AppEnv>();
  router.route('/sharing/rest', sharing);
  router.route('/portaladmin', createPortalAdminRouter());
  return router;
}
