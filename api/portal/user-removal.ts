/** The one rule for deleting a user, shared by community/users/{u}/delete and portals/{id}/removeUsers. */
import type { Database } from '../../db/client.js';
import { countAdmins, deleteUserRow, ownedContent, type UserRow } from '../../db/repositories/users.js';

/** Why `user` cannot be removed, or undefined when it can. */
export async function removalBlocker(db: Database, user: UserRow): Promise<string | undefined> {
  const owned = await ownedContent(db, user.username);
  if (owned.items + owned.groups + owned.collaborations > 0) {
    return (
      `User '${user.username}' still owns ${owned.items} item(s), ${owned.groups} group(s) and ` +
      `${owned.collaborations} collaboration(s); reassign or delete them first.`
    );
  }
  if (user.role === 'org_admin' && !user.disabled && (await countAdmins(db)) <= 1) {
    return `User '${user.username}' is the last administrator of the organization.`;
  }
  return undefined;
}

/** Deletes the user; tokens, group memberships, folders and password history go with it (cascades). */
export async function removeUser(db: Database, user: UserRow): Promise<void> {
  await deleteUserRow(db, user.username);
}
