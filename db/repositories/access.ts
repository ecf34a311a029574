/**
 * The lookups the access rules of lib/access need: an item with whether it is shared with a group the
 * viewer belongs to, and a hosted service's owner. Every surface (portal, REST services, tiles, SOAP)
 * asks here, so each rule is applied to the same facts.
 */

import { canRead, canReadDirectly } from '../../lib/access/items.js';
import {
  type Editor,
  editorOf,
  type FeatureAccess,
  ownershipWhereText,
  ownFeaturesCondition,
} from '../../lib/access/ownership.js';
import type { Principal } from '../../lib/access/roles.js';
import { editLayerOf } from '../../lib/edit/edit-layer.js';
import type { Database } from '../client.js';
import { sharedWithUser } from './item-sharing.js';
import { findItem, type ItemRow } from './items.js';
import type { HostedLayerRow, HostedServiceRow } from './services.js';

/** Whether the viewer may read the item: directly, or as a member of a group it is shared with. */
export async function mayReadItem(
  db: Database,
  item: ItemRow,
  viewer: Principal | undefined,
): Promise<boolean> {
  if (canReadDirectly(item, viewer)) return true;
  if (!viewer) return false;
  return canRead(item, viewer, await sharedWithUser(db, item.id, viewer.username));
}

/** The item when it exists and the viewer may read it; undefined otherwise (the two look alike). */
export async function findReadableItem(
  db: Database,
  id: string,
  viewer: Principal | undefined,
): Promise<ItemRow | undefined> {
  const item = await findItem(db, id);
  return item && (await mayReadItem(db, item, viewer)) ? item : undefined;
}

/** The caller as an editor of the service: its item's owner (or an administrator) is privileged. */
export async function serviceEditor(
  db: Database,
  service: HostedServiceRow,
  user: Principal | undefined,
): Promise<Editor> {
  if (!user) return editorOf(service.owner, user);
  const owner = (await findItem(db, service.serviceItemId))?.owner ?? service.owner;
  return editorOf(owner, user);
}

/**
 * A where clause limiting a query (or a delete by where clause) to the caller's own features, when the
 * layer's ownership access control keeps others' features from them; null when nothing is kept from them.
 */
export async function ownFeaturesWhere(
  db: Database,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  user: Principal | undefined,
  access: FeatureAccess = 'query',
): Promise<string | null> {
  const model = editLayerOf(layer.layerId, layer.tableName, layer.definition, layer.columns);
  const creator = model.tracking.creatorField?.name;
  if (!creator || !model.trackingInfo.enableOwnershipAccessControl) return null;
  const condition = ownFeaturesCondition(
    model.trackingInfo,
    creator,
    await serviceEditor(db, service, user),
    access,
  );
  return condition ? ownershipWhereText(condition) : null;
}
