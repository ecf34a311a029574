/**
 * Truncate of a hosted layer (the admin API's `{layer}/truncate`): every feature and attachment goes
 * in one transaction, the object ids start at 1 again, the layer's count and extent are reset and the
 * service's extent follows. After commit the attachment files are removed and the caches drawn from
 * the service redraw the area the layer covered. With attachmentOnly only the attachments go.
 */
import { truncateLayerRows } from '../../db/repositories/feature-calculate.js';
import { envelopeOf, extentBounds } from '../../db/repositories/feature-edit-layer.js';
import {
  inEditTransaction,
  layerExtents,
  lockLayer,
  writeLayerState,
  writeServiceExtent,
} from '../../db/repositories/feature-edits.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import { badRequest } from '../../lib/errors.js';
import { unionBounds } from '../../lib/geometry/index.js';
import { storageSpatialReference } from '../../lib/query/hosted-layer-catalog.js';
import type { AppDeps } from '../env.js';
import { refreshCachesAfterEdit } from '../services/cache-refresh.js';

export async function truncateLayer(
  deps: AppDeps,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  attachmentsOnly: boolean,
): Promise<void> {
  const now = deps.now();
  const storage = storageSpatialReference(service);
  const { keys, covered } = await inEditTransaction(deps.database, async (tx) => {
    const locked = await lockLayer(tx, service.serviceItemId, layer.layerId);
    if (!locked) throw badRequest('Unable to truncate.', [`Layer ${layer.layerId} does not exist.`]);
    const removed = await truncateLayerRows(
      tx,
      service.serviceItemId,
      layer.layerId,
      layer.tableName,
      attachmentsOnly,
    );
    if (attachmentsOnly) return { keys: removed, covered: null };
    const definition: Record<string, unknown> = {
      ...locked.definition,
      editingInfo: { ...((locked.definition.editingInfo as object | undefined) ?? {}), lastEditDate: now },
    };
    if (locked.definition.geometryType) definition.extent = envelopeOf(null, storage);
    await writeLayerState(tx, service.serviceItemId, layer.layerId, 0, definition);
    const extent = unionBounds((await layerExtents(tx, service.serviceItemId)).map(extentBounds));
    await writeServiceExtent(tx, service.serviceItemId, envelopeOf(extent, storage), now);
    return { keys: removed, covered: extentBounds(locked.definition.extent) };
  });
  for (const key of keys) {
    await deps.store
      .remove(key)
      .catch((e: unknown) =>
        deps.log.warn('attachment file could not be removed', { key, error: String(e) }),
      );
  }
  if (covered) await refreshCachesAfterEdit(deps, service.serviceItemId, [covered]);
}
