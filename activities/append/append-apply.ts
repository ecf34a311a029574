/**
 * The append job's apply step: the staged rows, read back in batches, mapped to the layer's fields and
 * written with applyEdits' rules (edit capabilities, ownership, editor tracking, one transaction under
 * rollbackOnFailure) as the submitter, each batch as a few set statements (appendBatch); the layer's
 * count and extent are written once, at the end. The job's row is locked first and marked Completed in
 * the same transaction, so a retry after a crash either finds the append done or finds nothing of it
 * written.
 * Memory holds one batch and the first results, whatever the source's size.
 */
import { Context } from '@temporalio/activity';
import { serviceEditor } from '../../db/repositories/access.js';
import { objectIdsByKey } from '../../db/repositories/append-keys.js';
import { sharedStagedKey, stagedBatch } from '../../db/repositories/append-staging.js';
import {
  appendBatch,
  beginLayerAppend,
  EditAborted,
  updateServiceExtent,
  writeEditedLayer,
} from '../../db/repositories/feature-edit-layer.js';
import { inEditTransaction } from '../../db/repositories/feature-edits.js';
import { completeJobIn, finishJob, lockJob } from '../../db/repositories/service-jobs.js';
import { findService, listLayers } from '../../db/repositories/services.js';
import { refreshableCachesOfSource } from '../../db/repositories/tile-caches.js';
import { findUser } from '../../db/repositories/users.js';
import { appendEdits, appendFieldMap, matchingField, upsertKeys } from '../../lib/edit/append-plan.js';
import { AppendTally } from '../../lib/edit/append-tally.js';
import { requireEditCapabilities } from '../../lib/edit/capabilities.js';
import { type EditContext, editLayerOf, OBJECT_ID_FIELD } from '../../lib/edit/edit-layer.js';
import { badRequest, internalError } from '../../lib/errors.js';
import { toMercator } from '../../lib/projection/project-bounds.js';
import { storageSpatialReference } from '../../lib/query/hosted-layer-catalog.js';
import type { AppendApplied, AppendJobInput, AppendStaged } from '../../workflows/append-messages.js';
import type { AppendDeps } from './append-activities.js';

/** Staged rows read and written at a time inside the transaction. */
const APPLY_BATCH = 5000;

const refuse = (detail: string) => badRequest('Unable to append.', [detail]);

class RolledBack extends Error {}

export async function applyStagedAppend(
  { database, now }: AppendDeps,
  input: AppendJobInput & { staged: AppendStaged },
): Promise<AppendApplied> {
  const { options, staged } = input;
  const db = database.db;
  const service = await findService(db, input.serviceItemId);
  const layer = (await listLayers(db, input.serviceItemId)).find((l) => l.layerId === input.layerId);
  if (service?.status !== 'ready' || !layer) throw refuse(`Layer ${input.layerId} does not exist any more.`);
  const model = editLayerOf(layer.layerId, layer.tableName, layer.definition, layer.columns);
  requireEditCapabilities(model.capabilities, options.upsert ? ['create', 'update'] : ['create']);
  const indexes = (layer.definition.indexes ?? []) as { fields?: string; isUnique?: boolean }[];
  const matching = options.upsert
    ? matchingField(model.fields, indexes, options.upsertMatchingField, OBJECT_ID_FIELD)
    : null;
  const targets = [OBJECT_ID_FIELD, ...model.fields.map((f) => f.name)];
  const map = appendFieldMap(staged.headers, targets, options, OBJECT_ID_FIELD);
  const keyColumn = matching ? map.get(matching.name) : undefined;
  if (matching && !keyColumn)
    throw refuse(`No source column is mapped to the matching field '${matching.name}'.`);
  const user = input.submitter ? await findUser(db, input.submitter) : undefined;
  const editor = await serviceEditor(db, service, user);
  const storage = storageSpatialReference(service);
  const ctx: EditContext = { inSR: staged.spatialReference, storage, editor: editor.username, now: now() };
  const caches = await refreshableCachesOfSource(db, service.serviceItemId);
  const jobId = input.source.jobId;
  const tally = new AppendTally(staged.rowCount);
  const cancelled = Context.current().cancellationSignal;
  let batchSize = { adds: 0, updates: 0 };

  try {
    return await inEditTransaction(database, async (tx) => {
      const job = await lockJob(tx, jobId);
      if (!job) throw internalError('Unable to append.', [`Job ${jobId} has no state.`]);
      // Fenced: an earlier attempt committed the append (or the job ended otherwise).
      if (job.status !== 'Executing')
        return {
          answer: { ...(job.result ?? {}), status: job.status },
          caches,
          areas: job.refreshAreas ?? [],
        };
      if (keyColumn) {
        const shared = await sharedStagedKey(tx, jobId, keyColumn);
        if (shared)
          throw refuse(
            `Rows share the key '${shared.key}' of the matching field (row ${shared.seq + 1}); each key may be appended once.`,
          );
      }
      const locked = await beginLayerAppend(tx, service, model);
      for (let after = -1; ; ) {
        const batch = await stagedBatch(tx, jobId, after, APPLY_BATCH);
        if (batch.length === 0) break;
        after = batch[batch.length - 1].seq;
        const rows = batch.map((b) => b.row);
        const keys = keyColumn ? upsertKeys(rows, keyColumn) : null;
        const existing =
          matching && keys
            ? await objectIdsByKey(
                tx,
                layer.tableName,
                matching.column,
                keys.filter((k): k is string => k !== null),
              )
            : new Map<string, number>();
        const edits = appendEdits(rows, map, keys, existing, options, OBJECT_ID_FIELD);
        batchSize = { adds: edits.adds.length, updates: edits.updates.length };
        const outcome = await appendBatch(tx, model, edits, ctx, editor, options.rollbackOnFailure);
        tally.add(outcome, edits.skipped);
        if (options.rollbackOnFailure && tally.failed > 0) throw new RolledBack();
        // A cancelled job (a synchronous request that stopped waiting) rolls back here.
        if (cancelled.aborted) throw refuse('The append was cancelled.');
      }
      // Count and extent once, for the whole append.
      if (tally.succeeded > 0) {
        await writeEditedLayer(tx, service.serviceItemId, model, locked, tally.added, tally.areas(), ctx);
        await updateServiceExtent(tx, service.serviceItemId, storage, ctx.now);
      }
      const answer = tally.answer('Completed');
      const areas = tally.areas().map((a) => toMercator(a, storage));
      await completeJobIn(tx, jobId, answer, areas, now());
      return { answer, caches, areas };
    });
  } catch (e) {
    if (!(e instanceof RolledBack || e instanceof EditAborted)) throw e;
    if (e instanceof EditAborted) tally.abort(e, batchSize);
    const answer = tally.answer('Failed');
    const error = { code: 400, message: 'Unable to append.', details: tally.failureDetails() };
    await finishJob(db, jobId, { status: 'Failed', error, result: answer }, now());
    return { answer: { ...answer, error }, caches: [], areas: [] };
  }
}
