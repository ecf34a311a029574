/**
 * One layer's part of an edit request, inside the request's transaction: the layer row locked, adds
 * (ids from the layer's sequence), updates and deletes checked against values, geometry and ownership,
 * the deleted features' attachment rows removed, then the count, extent and lastEditDate written.
 */

import { databaseEditError, databaseErrorFacts } from '../../lib/edit/database-edit-error.js';
import { type EditError, EditFailure, editFailure, objectMissing } from '../../lib/edit/edit-errors.js';
import {
  type EditContext,
  type EditLayer,
  objectIdOf,
  type PreparedFeature,
  prepareAdd,
  prepareUpdate,
  storableObjectId,
} from '../../lib/edit/edit-layer.js';
import type { LayerEdits } from '../../lib/edit/edit-parameters.js';
import { type Editor, notOwnerDescription, ownershipRule } from '../../lib/edit/ownership.js';
import { unionBounds } from '../../lib/geometry/index.js';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import { deleteAttachmentsOfFeatures } from './attachments.js';
import {
  allocateObjectIds,
  type FeatureRow,
  insertFeatures,
  rewindObjectIds,
  updateFeatures,
} from './feature-edit-sets.js';
import {
  allocateObjectId,
  deleteFeatureRows,
  type EditTransaction,
  insertFeature,
  layerExtents,
  lockLayer,
  readFeatures,
  summarizeTable,
  syncObjectIdSequence,
  updateFeature,
  writeLayerState,
  writeServiceExtent,
} from './feature-edits.js';
import type { HostedServiceRow } from './services.js';

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

/** Above this many rows an edit widens the stored extent instead of scanning the table for it. */
const EXACT_EXTENT_ROWS = 200_000;

export interface LayerOutcome extends LayerEditResults {
  areas: Bounds[];
  attachmentKeys: string[];
}

const succeeded = (objectId: number): EditResult => ({
  objectId,
  uniqueId: objectId,
  globalId: null,
  success: true,
});
export const failed = (error: EditError, objectId?: number): EditResult => ({
  ...(objectId !== undefined ? { objectId, uniqueId: objectId } : {}),
  globalId: null,
  success: false,
  error,
});
/**
 * An edit the database refused while edits are all or nothing: the transaction cannot go on, so the
 * request ends here and reports this edit's error, every other edit rolled back.
 */
export class EditAborted extends Error {
  constructor(
    readonly layerId: number,
    readonly kind: 'add' | 'update',
    readonly index: number,
    readonly result: EditResult,
  ) {
    super(result.error?.description ?? 'edit refused');
  }
}

/** Where an edit sits in the request, for EditAborted. */
interface EditPosition {
  layerId: number;
  kind: 'add' | 'update';
  index: number;
}

/** Runs one edit: alone in a savepoint when edits stand on their own, else directly. */
async function step(
  tx: EditTransaction,
  alone: boolean,
  at: EditPosition,
  work: (tx: EditTransaction) => Promise<EditResult>,
  objectId?: number,
): Promise<EditResult> {
  try {
    return alone ? await tx.savepoint(work) : await work(tx);
  } catch (e) {
    if (e instanceof EditFailure) return failed(e.error, objectId);
    const refused = databaseEditError(databaseErrorFacts(e));
    if (!alone) {
      if (refused) throw new EditAborted(at.layerId, at.kind, at.index, failed(refused, objectId));
      throw e;
    }
    return failed(refused ?? { code: 1000, description: 'Unable to complete operation.' }, objectId);
  }
}

export async function editLayer(
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
  for (const [index, input] of edits.adds.entries()) {
    const result = await step(tx, alone, { layerId: layer.id, kind: 'add', index }, async (t) => {
      const prepared = prepareAdd(layer, input, ctx);
      const objectId = await allocateObjectId(t, layer.table);
      await insertFeature(t, layer.table, objectId, prepared.values, prepared.geometry ?? null);
      if (prepared.geometry) areas.push(prepared.geometry.bounds);
      return succeeded(objectId);
    });
    addResults.push(result);
  }

  const updateRule = ownershipRule(layer.trackingInfo, editor, 'update');
  const updateIds = edits.updates.map(objectIdOf).filter(storableObjectId);
  const toUpdate = await readFeatures(tx, layer.table, updateIds, creatorColumn);
  const updateResults: EditResult[] = [];
  for (const [index, input] of edits.updates.entries()) {
    const objectId = objectIdOf(input) ?? undefined;
    const result = await step(
      tx,
      alone,
      { layerId: layer.id, kind: 'update', index },
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
  if (added > 0 || deleting.length > 0 || updateResults.some((r) => r.success))
    await writeEditedLayer(tx, service.serviceItemId, layer, locked, added - deleting.length, areas, ctx);
  return { id: layer.id, addResults, updateResults, deleteResults, areas, attachmentKeys };
}

/**
 * The layer's count, extent and lastEditDate after edits: counted and measured from the table while it
 * holds at most EXACT_EXTENT_ROWS rows, else the count moved by `countChange` and the stored extent
 * widened by the touched areas.
 */
export async function writeEditedLayer(
  tx: EditTransaction,
  serviceItemId: string,
  layer: Pick<EditLayer, 'id' | 'table' | 'geometryType'>,
  locked: { featureCount: number; definition: Record<string, unknown> },
  countChange: number,
  areas: readonly Bounds[],
  ctx: Pick<EditContext, 'now' | 'storage'>,
): Promise<void> {
  let count = locked.featureCount + countChange;
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
  await writeLayerState(tx, serviceItemId, layer.id, count, definition);
}

export function extentBounds(e: unknown): Bounds | null {
  const x = e as { xmin?: unknown; ymin?: unknown; xmax?: unknown; ymax?: unknown } | null | undefined;
  if (!x || typeof x.xmin !== 'number') return null;
  return [x.xmin, x.ymin as number, x.xmax as number, x.ymax as number];
}

/** The layer resource's extent; an empty layer's is NaN, as the publisher writes it. */
export const envelopeOf = (b: Bounds | null, sr: SpatialReference): Record<string, unknown> =>
  b
    ? { xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3], spatialReference: sr }
    : { xmin: 'NaN', ymin: 'NaN', xmax: 'NaN', ymax: 'NaN', spatialReference: sr };

/** The service's extent as the union of its layers', after edits changed one of them. */
export async function updateServiceExtent(
  tx: EditTransaction,
  serviceItemId: string,
  storage: SpatialReference,
  now: number,
): Promise<void> {
  const extent = unionBounds((await layerExtents(tx, serviceItemId)).map(extentBounds));
  await writeServiceExtent(tx, serviceItemId, envelopeOf(extent, storage), now);
}

/** The layer locked for an append, its object id sequence brought past its ids. */
export async function beginLayerAppend(
  tx: EditTransaction,
  service: HostedServiceRow,
  layer: EditLayer,
): Promise<{ featureCount: number; definition: Record<string, unknown> }> {
  const locked = await lockLayer(tx, service.serviceItemId, layer.id);
  if (!locked) throw editFailure(`Layer ${layer.id} does not exist.`);
  await syncObjectIdSequence(tx, layer.table);
  return locked;
}

/** What one input of a set came to: prepared for writing, or its result already (a failure). */
type Prepared<T> = { index: number; prepared: T } | { index: number; result: EditResult };

/** Prepares one edit with step()'s rules for what a failure is, without writing anything. */
function prepareOne<T>(alone: boolean, at: EditPosition, work: () => T, objectId?: number): Prepared<T> {
  try {
    return { index: at.index, prepared: work() };
  } catch (e) {
    if (e instanceof EditFailure) return { index: at.index, result: failed(e.error, objectId) };
    const refused = databaseEditError(databaseErrorFacts(e));
    if (!alone) {
      if (refused) throw new EditAborted(at.layerId, at.kind, at.index, failed(refused, objectId));
      throw e;
    }
    return {
      index: at.index,
      result: failed(refused ?? { code: 1000, description: 'Unable to complete operation.' }, objectId),
    };
  }
}

/**
 * A batch of an append's adds and updates of one layer locked by beginLayerAppend, with editLayer's
 * rules and results, written as sets: each edit is checked and prepared (values, domains, defaults,
 * editor tracking, geometry and projection, existence and ownership of updated features) in memory,
 * then the adds go in with one insert and the updates with one update for each set of rows writing
 * the same columns. When the database refuses a set, it is undone (a savepoint) and written again
 * row by row as editLayer writes, so the refused rows fail exactly as they do there. The layer's count
 * and extent are left to writeEditedLayer, once for the whole append.
 */
export async function appendBatch(
  tx: EditTransaction,
  layer: EditLayer,
  edits: Pick<LayerEdits, 'adds' | 'updates'>,
  ctx: EditContext,
  editor: Editor,
  rollback: boolean,
): Promise<Pick<LayerOutcome, 'addResults' | 'updateResults' | 'areas'>> {
  const alone = !rollback;
  const areas: Bounds[] = [];
  const at = (kind: 'add' | 'update', index: number): EditPosition => ({ layerId: layer.id, kind, index });

  const addResults: EditResult[] = new Array(edits.adds.length);
  const adds: { index: number; prepared: PreparedFeature }[] = [];
  for (const [index, input] of edits.adds.entries()) {
    const p = prepareOne(alone, at('add', index), () => prepareAdd(layer, input, ctx));
    if ('result' in p) addResults[index] = p.result;
    else adds.push(p);
  }
  const ids = await allocateObjectIds(tx, layer.table, adds.length);
  const insertRows: FeatureRow[] = adds.map((a, i) => ({
    objectId: ids[i],
    values: a.prepared.values,
    geometry: a.prepared.geometry ?? null,
  }));
  if (await inSavepoint(tx, (t) => insertFeatures(t, layer.table, insertRows))) {
    for (const [i, a] of adds.entries()) {
      addResults[a.index] = succeeded(ids[i]);
      if (a.prepared.geometry) areas.push(a.prepared.geometry.bounds);
    }
  } else {
    if (ids.length > 0) await rewindObjectIds(tx, layer.table, ids[0]);
    for (const a of adds)
      addResults[a.index] = await step(tx, alone, at('add', a.index), async (t) => {
        const objectId = await allocateObjectId(t, layer.table);
        await insertFeature(t, layer.table, objectId, a.prepared.values, a.prepared.geometry ?? null);
        if (a.prepared.geometry) areas.push(a.prepared.geometry.bounds);
        return succeeded(objectId);
      });
  }

  const creatorColumn = layer.tracking.creatorField?.column;
  const canSee = ownershipRule(layer.trackingInfo, editor, 'query');
  const visible = (creator: string | null) => !canSee || canSee(creator);
  const updateRule = ownershipRule(layer.trackingInfo, editor, 'update');
  const updateIds = edits.updates.map(objectIdOf).filter(storableObjectId);
  const toUpdate = await readFeatures(tx, layer.table, updateIds, creatorColumn);
  const updateResults: EditResult[] = new Array(edits.updates.length);
  const updates: { index: number; prepared: PreparedFeature & { objectId: number } }[] = [];
  for (const [index, input] of edits.updates.entries()) {
    const objectId = objectIdOf(input) ?? undefined;
    const p = prepareOne(
      alone,
      at('update', index),
      () => {
        const prepared = prepareUpdate(layer, input, ctx);
        const existing = toUpdate.get(prepared.objectId);
        if (!existing || !visible(existing.creator)) throw objectMissing(prepared.objectId);
        if (updateRule && !updateRule(existing.creator))
          throw editFailure(notOwnerDescription('update', prepared.objectId));
        return prepared;
      },
      objectId,
    );
    if ('result' in p) updateResults[index] = p.result;
    else updates.push(p);
  }
  const touched = (u: (typeof updates)[number]) => {
    const existing = toUpdate.get(u.prepared.objectId);
    if (existing?.bounds) areas.push(existing.bounds);
    if (u.prepared.geometry) areas.push(u.prepared.geometry.bounds);
  };
  const updateRows: FeatureRow[] = updates.map((u) => ({
    objectId: u.prepared.objectId,
    values: u.prepared.values,
    ...(u.prepared.geometry ? { geometry: u.prepared.geometry } : {}),
  }));
  // A feature updated twice in the batch is written row by row, in order, as applyEdits writes it (a set
  // update would apply one of the two, whichever the database met first).
  const once = new Set(updateRows.map((r) => r.objectId)).size === updateRows.length;
  if (once && (await inSavepoint(tx, (t) => updateFeatures(t, layer.table, updateRows)))) {
    for (const u of updates) {
      updateResults[u.index] = succeeded(u.prepared.objectId);
      touched(u);
    }
  } else {
    for (const u of updates)
      updateResults[u.index] = await step(
        tx,
        alone,
        at('update', u.index),
        async (t) => {
          await updateFeature(t, layer.table, u.prepared.objectId, u.prepared.values, u.prepared.geometry);
          touched(u);
          return succeeded(u.prepared.objectId);
        },
        u.prepared.objectId,
      );
  }
  return { addResults, updateResults, areas };
}

/**
 * Runs a set write in a savepoint: true when it went in, false when the database refused it (the
 * savepoint undone, so the rows can be written one by one). Anything else is thrown.
 */
async function inSavepoint(
  tx: EditTransaction,
  work: (tx: EditTransaction) => Promise<void>,
): Promise<boolean> {
  try {
    await tx.savepoint(work);
    return true;
  } catch (e) {
    if (databaseEditError(databaseErrorFacts(e))) return false;
    throw e;
  }
}
