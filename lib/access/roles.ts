/**
 * Roles and the privileges each holds, as the portal's user JSON lists them. ArcGIS also spells the
 * roles `account_admin`, `account_publisher` and `account_user`; those are the same roles, so every
 * rule asks `roleOf` and never compares a stored role string itself.
 */
export const ROLES = ['org_user', 'org_publisher', 'org_admin'] as const;
export type Role = (typeof ROLES)[number];

const ALIASES: Record<string, Role> = {
  account_user: 'org_user',
  account_publisher: 'org_publisher',
  account_admin: 'org_admin',
};

/** Who is asking, as far as the rules care: the user's name, role and whether the account is disabled. */
export interface Principal {
  username: string;
  role: string;
  disabled: boolean;
}

/** The canonical role of a role name (either spelling, any case); undefined for an unknown name. */
export function roleOf(name: string): Role | undefined {
  const lower = name.toLowerCase();
  return (ROLES as readonly string[]).includes(lower) ? (lower as Role) : ALIASES[lower];
}

export const PUBLISH_FEATURES = 'portal:publisher:publishFeatures';
export const PUBLISH_TILES = 'portal:publisher:publishTiles';
export const PUBLISH_VECTOR_TILES = 'portal:publisher:publishVectorTiles';

const USER = [
  'portal:user:joinGroup',
  'portal:user:createGroup',
  'portal:user:createItem',
  'portal:user:shareToGroup',
];
const PUBLISHER = [PUBLISH_FEATURES, PUBLISH_TILES, PUBLISH_VECTOR_TILES];
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
export const PRIVILEGES: Readonly<Record<Role, readonly string[]>> = {
  org_user: USER,
  org_publisher: [...USER, ...PUBLISHER],
  org_admin: [...ADMIN, ...USER, ...PUBLISHER],
};

/** The privileges of a role name in either spelling; none for an unknown one. */
export const privilegesOf = (role: string): readonly string[] => {
  const canonical = roleOf(role);
  return canonical ? PRIVILEGES[canonical] : [];
};

/** A disabled account holds no privilege. */
export const hasPrivilege = (user: Principal | undefined, privilege: string): boolean =>
  !!user && !user.disabled && privilegesOf(user.role).includes(privilege);

export const isAdmin = (user: Principal | undefined): boolean =>
  !!user && !user.disabled && roleOf(user.role) === 'org_admin';

/** User names are compared as the portal compares them: case-insensitively. */
export const sameUser = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The user themself or an administrator, acting on `username`'s resources. */
export const isSelfOrAdmin = (user: Principal | undefined, username: string): boolean =>
  !!user && (sameUser(user.username, username) || isAdmin(user));

/** What a publish produces, and the privilege it takes (ArcGIS's User role may add items but not publish). */
export type PublishOutput = 'features' | 'tiles' | 'vectorTiles';

export const PUBLISH_PRIVILEGE: Readonly<Record<PublishOutput, string>> = {
  features: PUBLISH_FEATURES,
  tiles: PUBLISH_TILES,
  vectorTiles: PUBLISH_VECTOR_TILES,
};

const PUBLISH_WHAT: Readonly<Record<PublishOutput, string>> = {
  features: 'hosted feature layers',
  tiles: 'hosted tile layers',
  vectorTiles: 'hosted vector tile layers',
};

/** The detail of the 403 a caller without the privilege gets. */
export const missingPublishPrivilege = (output: PublishOutput): string =>
  `Publishing ${PUBLISH_WHAT[output]} needs the privilege ${PUBLISH_PRIVILEGE[output]} (the Publisher or Administrator role).`;
