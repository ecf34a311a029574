import type { UserRow } from '../../db/repositories/users.js';

const USER = [
  'portal:user:joinGroup',
  'portal:user:createGroup',
  'portal:user:createItem',
  'portal:user:shareToGroup',
];
const PUBLISHER = [
  'portal:publisher:publishFeatures',
  'portal:publisher:publishTiles',
  'portal:publisher:publishVectorTiles',
];
const ADMIN = [
  'portal:admin:viewUsers',
  'portal:admin:updateUsers',
  'portal:admin:deleteUsers',
  'portal:admin:createUpdateCapableGroup',
  'portal:admin:manageSecurity',
  'portal:admin:manageCollaborations',
  'portal:admin:viewItems',
  'portal:admin:updateItems',
  'portal:admin:deleteItems',
  'portal:admin:viewGroups',
  'portal:admin:updateGroups',
  'portal:admin:deleteGroups',
];

/** Each role holds the privileges of the roles below it. */
export const PRIVILEGES: Record<string, string[]> = {
  org_user: USER,
  org_publisher: [...USER, ...PUBLISHER],
  org_admin: [...ADMIN, ...USER, ...PUBLISHER],
};

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
    privileges: PRIVILEGES[user.role] ?? [],
    roleId: user.role,
    lastLogin: user.lastLogin,
    mfaEnabled: false,
    storageUsage: 0,
    storageQuota: -1,
    groups: [],
  };
}
