/**
 * applyEdits and its one-kind forms for hosted layers: per layer, lock → adds, updates, deletes →
 * count, extent and lastEditDate, all in one transaction. With rollbackOnFailure (the default) one
 * failed edit undoes the request and every result reports failure; without it each edit stands alone
 * in a savepoint. After commit: the deleted features' attachment files go and the tile caches drawn
 * from the service are asked to redraw the touched areas.
 */
import { deleteAttachmentsOfFeatures } from '../../db/repositories/attachments.js';
import {
  allocateObjectId,
  deleteFeatureRows,
  type EditTransaction,
  inEditTransaction,
  insertFeature,
  layerExtents,
  lockLayer,
  readFeatures,
  summarizeTable,
  syncObjectIdSequence,
  updateFeature,
  writeLayerState,
  writeServiceExtent,
} from '../../db/repositories/feature-edits.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import type { UserRow } from '../../db/repositories/users.js';
import { type EditKind, requireEditCapabilities } from '../../lib/edit/capabilities.js';
import {
  type EditError,
  EditFailure,
  editFailure,
  objectMissing,
  ROLLED_BACK,
} from '../../lib/edit/edit-errors.js';
import {
  type EditContext,
  type EditLayer,
  editLayerOf,
  objectIdOf,
  prepareAdd,
  prepareUpdate,
} from '../../lib/edit/edit-layer.js';
import type { LayerEdits } from '../../lib/edit/edit-parameters.js';
import { type Editor, notOwnerDescription, ownershipRule } from '../../lib/edit/ownership.js';
import { unionBounds } from '../../lib/geometry/index.js';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import type { AppDeps } from '../env.js';
import { refreshCachesAfterEdit } from './cache-refresh.js';
import { editorOf } from './feature-edit-access.js';
import { storageSpatialReference } from './hosted-layer.js';

export interface EditResult {
  objectId?: number;
  uniqueId?: number;
  globalId: null;
  success: boolean;
  error?: EditError;
}

export interface LayerEditResults {
  id: number;
  addResults: EditResult[];
  updateResults: EditResult[];
  deleteResults: EditResult[];
}

export interface EditOptions {
  user: UserRow | undefined;
  inSR: SpatialReference | null;
  rollbackOnFailure: boolean;
}

/** Above this many rows an edit widens the stored extent instead of scanning the table for it. */
const EXACT_EXTENT_ROWS = 200_000;

interface LayerOutcome extends LayerEditResults {
  areas: Bounds[];
  attachmentKeys: string[];
}

class RolledBack extends Error {
  constructor(readonly outcomes: LayerOutcome[]) {
    super('rolled back');
  }
}

const succeeded = (objectId: number): EditResult => ({
  objectId,
  uniqueId: objectId,
  globalId: null,
  success: true,
});
const failed = (error: EditError, objectId?: number): EditResult => ({
  ...(objectId !== undefined ? { objectId, uniqueId: objectId } : {}),
  globalId: null,
  success: false,
  error,
});

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

async function afterCommit(deps: AppDeps, serviceItemId: string, outcomes: LayerOutcome[]): Promise<void> {
  for (const key of outcomes.flatMap((o) => o.attachmentKeys)) {
    await deps.store
      .remove(key)
      .catch((e: unknown) =>
        deps.log.warn('attachment file could not be removed', { key, error: String(e) }),
      );
  }
  const areas = outcomes.flatMap((o) => o.areas);
  if (areas.length > 0) await refreshCachesAfterEdit(deps, serviceItemId, areas);
}

/** Runs one edit: alone in a savepoint when edits stand on their own, else directly. */
async function step(
  tx: EditTransaction,
  alone: boolean,
  work: (tx: EditTransaction) => Promise<EditResult>,
  objectId?: number,
): Promise<EditResult> {
  try {
    return alone ? await tx.savepoint(work) : await work(tx);
  } catch (e) {
    if (e instanceof EditFailure) return failed(e.error, objectId);
    if (!alone) throw e;
    return failed({ code: 1000, description: 'Unable to complete operation.' }, objectId);
  }
}

async function editLayer(
  tx: EditTransaction,
  service: HostedServiceRow,
  layer: EditLayer,
  edits: LayerEdits,
  ctx: EditContext,
  editor: Editor,
  rollback: boolean,
): Promise<LayerOutcome> {
  const locked = await lockLayer(tx, service.serviceItemId, layer.id);
  if (!locked) throw editFailure(`Layer ${layer.id} does not exist.`);
  const areas: Bounds[] = [];
  const alone = !rollback;
  const creatorColumn = layer.tracking.creatorField?.column;
  const canSee = ownershipRule(layer.trackingInfo, editor, 'query');
  const visible = (creator: string | null) => !canSee || canSee(creator);

  const addResults: EditResult[] = [];
  if (edits.adds.length > 0) await syncObjectIdSequence(tx, layer.table);
  for (const input of edits.adds) {
    const result = await step(tx, alone, async (t) => {
      const prepared = prepareAdd(layer, input, ctx);
      const objectId = await allocateObjectId(t, layer.table);
      await insertFeature(t, layer.table, objectId, prepared.values, prepared.geometry ?? null);
      if (prepared.geometry) areas.push(prepared.geometry.bounds);
      return succeeded(objectId);
    });
    addResults.push(result);
  }

  const updateRule = ownershipRule(layer.trackingInfo, editor, 'update');
  const updateIds = edits.updates.map(objectIdOf).filter((id): id is number => id !== null);
  const toUpdate = await readFeatures(tx, layer.table, updateIds, creatorColumn);
  const updateResults: EditResult[] = [];
  for (const input of edits.updates) {
    const objectId = objectIdOf(input) ?? undefined;
    const result = await step(
      tx,
      alone,
      async (t) => {
        const prepared = prepareUpdate(layer, input, ctx);
        const existing = toUpdate.get(prepared.objectId);
        if (!existing || !visible(existing.creator)) throw objectMissing(prepared.objectId);
        if (updateRule && !updateRule(existing.creator))
          throw editFailure(notOwnerDescription('update', prepared.objectId));
        await updateFeature(t, layer.table, prepared.objectId, prepared.values, prepared.geometry);
        if (existing.bounds) areas.push(existing.bounds);
        if (prepared.geometry) areas.push(prepared.geometry.bounds);
        return succeeded(prepared.objectId);
      },
      objectId,
    );
    updateResults.push(result);
  }

  const deleteRule = ownershipRule(layer.trackingInfo, editor, 'delete');
  const toDelete = await readFeatures(tx, layer.table, edits.deletes, creatorColumn);
  const deleteResults: EditResult[] = [];
  const deleting: number[] = [];
  for (const objectId of edits.deletes) {
    const existing = toDelete.get(objectId);
    if (!existing || !visible(existing.creator))
      deleteResults.push(failed(objectMissing(objectId).error, objectId));
    else if (deleteRule && !deleteRule(existing.creator))
      deleteResults.push(failed(editFailure(notOwnerDescription('delete', objectId)).error, objectId));
    else {
      deleting.push(objectId);
      if (existing.bounds) areas.push(existing.bounds);
      deleteResults.push(succeeded(objectId));
    }
  }
  await deleteFeatureRows(tx, layer.table, deleting);
  const attachmentKeys = await deleteAttachmentsOfFeatures(tx, service.serviceItemId, layer.id, deleting);

  const added = addResults.filter((r) => r.success).length;
  if (added > 0 || deleting.length > 0 || updateResults.some((r) => r.success)) {
    let count = locked.featureCount + added - deleting.length;
    const oldExtent = extentBounds(locked.definition.extent);
    let extent = unionBounds([oldExtent, ...areas]);
    if (count <= EXACT_EXTENT_ROWS) ({ count, extent } = await summarizeTable(tx, layer.table));
    const definition: Record<string, unknown> = {
      ...locked.definition,
      editingInfo: {
        ...((locked.definition.editingInfo as object | undefined) ?? {}),
        lastEditDate: ctx.now,
      },
    };
    if (layer.geometryType) definition.extent = envelopeOf(extent, ctx.storage);
    await writeLayerState(tx, service.serviceItemId, layer.id, count, definition);
  }
  return { id: layer.id, addResults, updateResults, deleteResults, areas, attachmentKeys };
}

async function updateServiceExtent(
  tx: EditTransaction,
  serviceItemId: string,
  storage: SpatialReference,
  now: number,
): Promise<void> {
  const extent = unionBounds((await layerExtents(tx, serviceItemId)).map(extentBounds));
  await writeServiceExtent(tx, serviceItemId, envelopeOf(extent, storage), now);
}

function extentBounds(e: unknown): Bounds | null {
  const x = e as { xmin?: unknown; ymin?: unknown; xmax?: unknown; ymax?: unknown } | null | undefined;
  if (!x || typeof x.xmin !== 'number') return null;
  return [x.xmin, x.ymin as number, x.xmax as number, x.ymax as number];
}

/** The layer resource's extent; an empty layer's is NaN, as the publisher writes it. */
const envelopeOf = (b: Bounds | null, sr: SpatialReference): Record<string, unknown> =>
  b
    ? { xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3], spatialReference: sr }
    : { xmin: 'NaN', ymin: 'NaN', xmax: 'NaN', ymax: 'NaN', spatialReference: sr };
