/** Roles and privileges: who may do what. Every router asks here before it changes anything. */
import type { Context } from 'hono';
import type { UserRow } from '../../db/repositories/users.js';
import { forbidden } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { PRIVILEGES } from './user-json.js';

export const ROLES = ['org_user', 'org_publisher', 'org_admin'] as const;
export type Role = (typeof ROLES)[number];

export const isAdmin = (user: UserRow | undefined): boolean => user?.role === 'org_admin' && !user.disabled;

export function hasPrivilege(user: UserRow, privilege: string): boolean {
  return (PRIVILEGES[user.role] ?? []).includes(privilege);
}

/** The signed-in user, who must hold `privilege`. */
export function requirePrivilege(c: Context<AppEnv>, privilege: string): UserRow {
  const user = requireUser(c);
  if (!hasPrivilege(user, privilege)) throw forbidden();
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
  if (user.username.toLowerCase() !== username.toLowerCase() && !isAdmin(user)) throw forbidden();
  return user;
}

/** `/portals/{id}/...` accepts `self` and this portal's id; other ids are other organizations. */
export function assertThisPortal(c: Context<AppEnv>): void {
  const id = c.req.param('portalId');
  if (id && id !== 'self' && id !== c.get('deps').portalId) throw forbidden();
}
