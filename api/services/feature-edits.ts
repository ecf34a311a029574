/**
 * applyEdits and its one-kind forms for hosted layers: per layer, lock → adds, updates, deletes →
 * count, extent and lastEditDate (feature-edit-layer.ts), all in one transaction. With
 * rollbackOnFailure (the default) one failed edit undoes the request and every result reports
 * failure; without it each edit stands alone in a savepoint. After commit: the deleted features'
 * attachment files go and the tile caches drawn from the service are asked to redraw the touched areas.
 */

import { serviceEditor as editorOf } from '../../db/repositories/access.js';
import {
  EditAborted,
  type EditResult,
  editLayer,
  failed,
  type LayerEditResults,
  type LayerOutcome,
  updateServiceExtent,
} from '../../db/repositories/feature-edit-layer.js';
import { inEditTransaction } from '../../db/repositories/feature-edits.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import type { UserRow } from '../../db/repositories/users.js';
import { type EditKind, requireEditCapabilities } from '../../lib/edit/capabilities.js';
import { ROLLED_BACK } from '../../lib/edit/edit-errors.js';
import { type EditContext, editLayerOf, objectIdOf } from '../../lib/edit/edit-layer.js';
import type { LayerEdits } from '../../lib/edit/edit-parameters.js';
import { unionBounds } from '../../lib/geometry/index.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { storageSpatialReference } from '../../lib/query/hosted-layer-catalog.js';
import type { AppDeps } from '../env.js';
import { refreshCachesAfterEdit } from './cache-refresh.js';

export type { EditResult, LayerEditResults } from '../../db/repositories/feature-edit-layer.js';

export interface EditOptions {
  user: UserRow | undefined;
  inSR: SpatialReference | null;
  rollbackOnFailure: boolean;
}

/** Past this many touched envelopes the tile caches are asked to redraw their union instead. */
const MAX_REFRESH_AREAS = 500;

class RolledBack extends Error {
  constructor(readonly outcomes: LayerOutcome[]) {
    super('rolled back');
  }
}

export function editKinds(edits: LayerEdits): EditKind[] {
  const kinds: EditKind[] = [];
  if (edits.adds.length > 0) kinds.push('create');
  if (edits.updates.length > 0) kinds.push('update');
  if (edits.deletes.length > 0) kinds.push('delete');
  return kinds;
}

export async function applyEdits(
  deps: AppDeps,
  service: HostedServiceRow,
  requests: { layer: HostedLayerRow; edits: LayerEdits }[],
  options: EditOptions,
): Promise<LayerEditResults[]> {
  const models = requests.map(({ layer, edits }) => {
    const model = editLayerOf(layer.layerId, layer.tableName, layer.definition, layer.columns);
    requireEditCapabilities(model.capabilities, editKinds(edits));
    return model;
  });
  const editor = await editorOf(deps.database.db, service, options.user);
  const storage = storageSpatialReference(service);
  const ctx: EditContext = { inSR: options.inSR, storage, editor: editor.username, now: deps.now() };
  let outcomes: LayerOutcome[];
  try {
    outcomes = await inEditTransaction(deps.database, async (tx) => {
      const out: LayerOutcome[] = [];
      for (const [i, { edits }] of requests.entries()) {
        out.push(await editLayer(tx, service, models[i], edits, ctx, editor, options.rollbackOnFailure));
      }
      const anyFailed = out.some((o) =>
        [...o.addResults, ...o.updateResults, ...o.deleteResults].some((r) => !r.success),
      );
      if (options.rollbackOnFailure && anyFailed) throw new RolledBack(out);
      if (out.some((o) => o.areas.length > 0 || o.deleteResults.some((r) => r.success))) {
        await updateServiceExtent(tx, service.serviceItemId, storage, ctx.now);
      }
      return out;
    });
  } catch (e) {
    if (e instanceof RolledBack) return e.outcomes.map(rolledBack);
    if (e instanceof EditAborted) return requests.map(({ layer, edits }) => aborted(layer.layerId, edits, e));
    throw e;
  }
  await afterCommit(deps, service.serviceItemId, outcomes);
  return outcomes.map(({ id, addResults, updateResults, deleteResults }) => ({
    id,
    addResults,
    updateResults,
    deleteResults,
  }));
}

function rolledBack(o: LayerOutcome): LayerEditResults {
  const undo = (r: EditResult): EditResult => (r.success ? failed(ROLLED_BACK, r.objectId) : r);
  return {
    id: o.id,
    // Ids handed out to adds that were undone are not theirs any more.
    addResults: o.addResults.map((r) => (r.success ? failed(ROLLED_BACK) : r)),
    updateResults: o.updateResults.map(undo),
    deleteResults: o.deleteResults.map(undo),
  };
}

/** Every edit of the request rolled back, the one the database refused with its own error. */
function aborted(id: number, edits: LayerEdits, at: EditAborted): LayerEditResults {
  const undone = (objectId?: number) => failed(ROLLED_BACK, objectId);
  const mark = (results: EditResult[], kind: EditAborted['kind']) =>
    at.layerId === id && at.kind === kind ? results.map((r, i) => (i === at.index ? at.result : r)) : results;
  return {
    id,
    addResults: mark(
      edits.adds.map(() => undone()),
      'add',
    ),
    updateResults: mark(
      edits.updates.map((u) => undone(objectIdOf(u) ?? undefined)),
      'update',
    ),
    deleteResults: edits.deletes.map((objectId) => undone(objectId)),
  };
}

async function afterCommit(deps: AppDeps, serviceItemId: string, outcomes: LayerOutcome[]): Promise<void> {
  for (const key of outcomes.flatMap((o) => o.attachmentKeys)) {
    await deps.store
      .remove(key)
      .catch((e: unknown) =>
        deps.log.warn('attachment file could not be removed', { key, error: String(e) }),
      );
  }
  const areas = outcomes.flatMap((o) => o.areas);
  if (areas.length === 0) return;
  // A large edit (a delete by where clause) is one area: the signal stays small and the redraw is the same.
  const union = areas.length > MAX_REFRESH_AREAS ? unionBounds(areas) : null;
  await refreshCachesAfterEdit(deps, serviceItemId, union ? [union] : areas);
}
