/** The one rule for deleting a user, shared by community/users/{u}/delete and portals/{id}/removeUsers. */
import type { Database } from '../../db/client.js';
import { deleteRelationshipsCreatedBy } from '../../db/repositories/items.js';
import { countAdmins, deleteUserRow, ownedContent, type UserRow } from '../../db/repositories/users.js';
import { isAdmin } from '../../lib/access/roles.js';

/** Why `user` cannot be removed, or undefined when it can. */
export async function removalBlocker(db: Database, user: UserRow): Promise<string | undefined> {
  const owned = await ownedContent(db, user.username);
  if (owned.items + owned.groups + owned.collaborations > 0) {
    return (
      `User '${user.username}' still owns ${owned.items} item(s), ${owned.groups} group(s) and ` +
      `${owned.collaborations} collaboration(s); reassign or delete them first.`
    );
  }
  if (isAdmin(user) && (await countAdmins(db)) <= 1) {
    return `User '${user.username}' is the last administrator of the organization.`;
  }
  return undefined;
}

/**
 * Deletes the user with the relationships they created; tokens, group memberships, folders and password
 * history go with the row (cascades). Returns false when content appeared since the check: the foreign
 * keys from items, groups and collaborations then refuse the delete and nothing changes.
 */
export async function removeUser(db: Database, user: UserRow): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      await deleteRelationshipsCreatedBy(tx as unknown as Database, user.username);
      await deleteUserRow(tx as unknown as Database, user.username);
    });
    return true;
  } catch (e) {
    if (isForeignKeyViolation(e)) return false;
    throw e;
  }
}

function isForeignKeyViolation(e: unknown): boolean {
  const seen = new Set<unknown>();
  for (
    let cur: unknown = e;
    cur && typeof cur === 'object' && !seen.has(cur);
    cur = (cur as { cause?: unknown }).cause
  ) {
    seen.add(cur);
    if ((cur as { code?: string }).code === '23503') return true;
  }
  return false;
}
