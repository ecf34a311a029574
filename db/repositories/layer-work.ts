/**
 * The whole-layer changes a client may ask to run as a job: calculate, truncate and the admin API's
 * definition changes. Each is described by plain data the request computed (compiled SQL fragments,
 * the schema change plan, the request's time), so the API's synchronous path and the worker's job run
 * the same code inside a transaction of their own: the job's also locks and completes its job row.
 */

import { databaseEditError, databaseErrorFacts } from '../../lib/edit/database-edit-error.js';
import { badRequest } from '../../lib/errors.js';
import { unionBounds } from '../../lib/geometry/index.js';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import { dataExceptionError } from '../../lib/query/query-errors.js';
import type { SqlFragment } from '../../lib/query/sql-chunks.js';
import { type CalculateSet, calculateRows, truncateLayerRows } from './feature-calculate.js';
import { envelopeOf, extentBounds } from './feature-edit-layer.js';
import {
  type EditTransaction,
  layerExtents,
  lockLayer,
  writeLayerState,
  writeServiceExtent,
} from './feature-edits.js';
import { applySchemaChanges, type LayerSchemaChange } from './layer-schema.js';

type Json = Record<string, unknown>;

/** calculate: `sets` on the rows `filter` selects (the caller's where, narrowed to what they may edit). */
export interface CalculateWork {
  kind: 'calculate';
  serviceItemId: string;
  layerId: number;
  tableName: string;
  sets: CalculateSet[];
  filter: SqlFragment | null;
  now: number;
}

/** truncate: every feature and attachment of the layer, or with attachmentsOnly its attachments. */
export interface TruncateWork {
  kind: 'truncate';
  serviceItemId: string;
  layerId: number;
  tableName: string;
  attachmentsOnly: boolean;
  storage: SpatialReference;
  now: number;
}

/** add/update/deleteFromDefinition: the planned changes, and the areas whose drawing changed. */
export interface DefinitionWork {
  kind: 'definition';
  serviceItemId: string;
  changes: LayerSchemaChange[];
  serviceChanges: Json;
  /** Fills the creator and editor of features that gain tracking fields. */
  owner: string;
  redraw: Bounds[];
  now: number;
}

export type LayerWork = CalculateWork | TruncateWork | DefinitionWork;

export interface LayerWorkDone {
  /** The operation's answer to the client. */
  answer: Json;
  /** Areas (storage spatial reference) the caches drawn from the service must draw again. */
  areas: Bounds[];
  /** Attachment files to remove once the transaction has committed. */
  removedKeys: string[];
}

export function doLayerWork(tx: EditTransaction, work: LayerWork): Promise<LayerWorkDone> {
  switch (work.kind) {
    case 'calculate':
      return calculateLayer(tx, work);
    case 'truncate':
      return truncateLayer(tx, work);
    case 'definition':
      return changeDefinition(tx, work);
  }
}

const lastEdited = (definition: Json, now: number): Json => ({
  ...definition,
  editingInfo: { ...((definition.editingInfo as object | undefined) ?? {}), lastEditDate: now },
});

async function calculateLayer(tx: EditTransaction, work: CalculateWork): Promise<LayerWorkDone> {
  const refuse = (detail: string) => badRequest('Unable to complete operation.', [detail]);
  const locked = await lockLayer(tx, work.serviceItemId, work.layerId);
  if (!locked) throw refuse(`Layer ${work.layerId} does not exist.`);
  const result = await calculateRows(tx, work.tableName, work.sets, work.filter).catch((e: unknown) => {
    const facts = databaseErrorFacts(e);
    if (dataExceptionError(facts.code))
      throw refuse(
        'The calculation could not be done on the stored values (overflow, division by zero or a bad cast).',
      );
    // A job that waited behind a definition change finds a field it names gone.
    if (facts.code === '42703') throw refuse('A field of the calculation was removed from the layer.');
    // A NOT NULL column or a unique index of the layer refused the new values.
    const field = work.sets.find((s) => s.column === facts.column)?.field;
    const refused = facts.code?.startsWith('23')
      ? databaseEditError({ ...facts, ...(field ? { column: field } : {}) })
      : null;
    throw refused ? refuse(refused.description) : e;
  });
  if (result.count > 0)
    await writeLayerState(
      tx,
      work.serviceItemId,
      work.layerId,
      locked.featureCount,
      lastEdited(locked.definition, work.now),
    );
  return {
    answer: { success: true, updatedFeatureCount: result.count },
    areas: result.bounds ? [result.bounds] : [],
    removedKeys: [],
  };
}

/**
 * Every feature and attachment goes, the object ids start at 1 again, the layer's count and extent
 * are reset and the service's extent follows.
 */
async function truncateLayer(tx: EditTransaction, work: TruncateWork): Promise<LayerWorkDone> {
  const { serviceItemId, layerId, storage, now } = work;
  const locked = await lockLayer(tx, serviceItemId, layerId);
  if (!locked) throw badRequest('Unable to truncate.', [`Layer ${layerId} does not exist.`]);
  const removedKeys = await truncateLayerRows(
    tx,
    serviceItemId,
    layerId,
    work.tableName,
    work.attachmentsOnly,
  );
  const answer = { success: true };
  if (work.attachmentsOnly) return { answer, areas: [], removedKeys };
  const definition = lastEdited(locked.definition, now);
  if (locked.definition.geometryType) definition.extent = envelopeOf(null, storage);
  await writeLayerState(tx, serviceItemId, layerId, 0, definition);
  const extent = unionBounds((await layerExtents(tx, serviceItemId)).map(extentBounds));
  await writeServiceExtent(tx, serviceItemId, envelopeOf(extent, storage), now);
  const covered = extentBounds(locked.definition.extent);
  return { answer, areas: covered ? [covered] : [], removedKeys };
}

async function changeDefinition(tx: EditTransaction, work: DefinitionWork): Promise<LayerWorkDone> {
  await applySchemaChanges(tx, work.serviceItemId, work.changes, work.serviceChanges, work.owner, work.now);
  return { answer: { success: true }, areas: work.redraw, removedKeys: [] };
}
