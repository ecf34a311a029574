/**
 * Who is editing: the signed-in user (or nobody), and whether they are the service item's owner or an
 * administrator, whom ownership access control never restricts. Reading the service at all was already
 * checked by the FeatureServer router's middleware.
 */
import type { Database } from '../../db/client.js';
import { findItem } from '../../db/repositories/items.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import type { UserRow } from '../../db/repositories/users.js';
import { editLayerOf } from '../../lib/edit/edit-layer.js';
import { type Editor, type FeatureAccess, ownershipRule } from '../../lib/edit/ownership.js';
import { parseWhere } from '../../lib/query/where-parser.js';
import { isAdmin } from '../portal/access.js';

export async function editorOf(
  db: Database,
  service: HostedServiceRow,
  user: UserRow | undefined,
): Promise<Editor> {
  if (!user) return { username: '', privileged: false };
  const owner = (await findItem(db, service.serviceItemId))?.owner ?? service.owner;
  return { username: user.username, privileged: user.username === owner || isAdmin(user) };
}

/**
 * A where clause limiting a query (or a delete by where clause) to the caller's own features, when the
 * layer's ownership access control keeps others' features from them (allowOthersToQuery or
 * allowOthersToDelete false); null when nothing is kept from them.
 * It is parsed by the same safe where parser as the client's clause, the name quoted as a literal.
 */
export async function ownFeaturesWhere(
  db: Database,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  user: UserRow | undefined,
  access: FeatureAccess = 'query',
): Promise<string | null> {
  const model = editLayerOf(layer.layerId, layer.tableName, layer.definition, layer.columns);
  const creator = model.tracking.creatorField;
  if (!creator || !model.trackingInfo.enableOwnershipAccessControl) return null;
  const rule = ownershipRule(model.trackingInfo, await editorOf(db, service, user), access);
  if (!rule) return null;
  const name = (user?.username ?? '').replaceAll("'", "''");
  return name === '' ? `(${creator.name} IS NULL OR ${creator.name} = '')` : `${creator.name} = '${name}'`;
}

/**
 * The client's where clause narrowed to `own`. The clause is parsed alone first, so a clause with
 * unbalanced parentheses (`1=1) OR (1=1`) is refused instead of escaping the brackets around it.
 */
export function narrowedWhere(where: string | undefined, own: string): string {
  if (!where?.trim()) return own;
  parseWhere(where);
  return `(${where}) AND ${own}`;
}
