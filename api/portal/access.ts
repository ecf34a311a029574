/**
 * The request-side of the access rules: the signed-in caller, checked against lib/access. The rules
 * themselves (roles, privileges, who may read or change what) live in lib/access, shared by every surface.
 */
import type { Context } from 'hono';
import type { UserRow } from '../../db/repositories/users.js';
import {
  hasPrivilege,
  isAdmin,
  isSelfOrAdmin,
  missingPublishPrivilege,
  PUBLISH_PRIVILEGE,
  type PublishOutput,
} from '../../lib/access/roles.js';
import { forbidden } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';

/** The signed-in user, who must hold `privilege`. */
export function requirePrivilege(
  c: Context<AppEnv>,
  privilege: string,
  message?: string,
  details: string[] = [],
): UserRow {
  const user = requireUser(c);
  if (!hasPrivilege(user, privilege)) throw forbidden(message, details);
  return user;
}

/** The signed-in user, who must hold the privilege of publishing `output` (403 as ArcGIS answers it otherwise). */
export function requirePublisher(c: Context<AppEnv>, output: PublishOutput): UserRow {
  const user = requireUser(c);
  if (!hasPrivilege(user, PUBLISH_PRIVILEGE[output]))
    throw forbidden(undefined, [missingPublishPrivilege(output)]);
  return user;
}

export function requireAdmin(c: Context<AppEnv>): UserRow {
  const user = requireUser(c);
  if (!isAdmin(user)) throw forbidden('This operation requires an administrator of the organization.');
  return user;
}

/** The signed-in user acting on `username`'s resources: the user themself or an administrator. */
export function requireSelfOrAdmin(c: Context<AppEnv>, username: string): UserRow {
  const user = requireUser(c);
  if (!isSelfOrAdmin(user, username)) throw forbidden();
  return user;
}

/** `/portals/{id}/...` accepts `self` and this portal's id; other ids are other organizations. */
export function assertThisPortal(c: Context<AppEnv>): void {
  const id = c.req.param('portalId');
  if (id && id !== 'self' && id !== c.get('deps').portalId) throw forbidden();
}
