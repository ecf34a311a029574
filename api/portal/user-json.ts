import type { UserRow } from '../../db/repositories/users.js';
import { privilegesOf } from '../../lib/access/roles.js';

/** The user resource as community/self and community/users/{u} return it. */
export function userJson(user: UserRow, portalId: string, full: boolean): Record<string, unknown> {
  const base: Record<string, unknown> = {
    username: user.username,
    fullName: user.fullName,
    firstName: user.firstName,
    lastName: user.lastName,
    description: user.description,
    orgId: portalId,
    role: user.role,
    userType: 'arcgisonly',
    provider: 'arcgis',
    access: 'org',
    culture: 'en',
    region: 'US',
    units: 'metric',
    created: user.created,
    modified: user.modified,
    disabled: user.disabled,
  };
  if (!full) return base;
  return {
    ...base,
    email: user.email,
    privileges: [...privilegesOf(user.role)],
    // No roleId: that names a custom role; the built-in ones are in role alone. Clients tell a default
    // administrator by role org_admin without a roleId (@esri/arcgis-rest-portal's isOrgAdmin).
    lastLogin: user.lastLogin,
    mfaEnabled: false,
    storageUsage: 0,
    storageQuota: -1,
    groups: [],
  };
}
