/**
 * FeatureServer/{layer}/append: rows of an uploaded item added to the layer, or with upsert matched to
 * its features by a key. The request is checked here (parameters, edit capabilities, the matching
 * field, the item and the caller's access to it); the work is a Temporal workflow in the worker
 * (workflows/append.ts): the source staged in batches, then applied with applyEdits' rules in one
 * transaction that also records the job's outcome. async=true answers a statusUrl at once; otherwise
 * the request waits for the workflow and answers its result.
 */
import type { Context } from 'hono';
import { mayReadItem } from '../../db/repositories/access.js';
import { findItem } from '../../db/repositories/items.js';
import { finishJob } from '../../db/repositories/service-jobs.js';
import type { PublishFileType } from '../../db/schema/publish-request.js';
import { readAppendParameters } from '../../lib/edit/append-parameters.js';
import { matchingField } from '../../lib/edit/append-plan.js';
import { requireEditCapabilities } from '../../lib/edit/capabilities.js';
import { editLayerOf, OBJECT_ID_FIELD } from '../../lib/edit/edit-layer.js';
import { badRequest, forbidden, GeoError, itemNotFound, toGeoError } from '../../lib/errors.js';
import type { appendWorkflow } from '../../workflows/append.js';
import { APPEND_WORKFLOW, type AppendJobInput, appendWorkflowId } from '../../workflows/append-messages.js';
import type { AppEnv } from '../env.js';
import { format, sendJson } from '../render.js';
import { requestLayer } from './request-layer.js';
import { createJob, newJobId, statusUrlOf } from './service-jobs.js';

/** How long a synchronous append waits for its job before cancelling it and asking for async. */
const SYNC_WAIT_MS = 120_000;

const ITEM_FILE_TYPES: Record<string, PublishFileType> = {
  csv: 'csv',
  'microsoft excel': 'excel',
  geojson: 'geojson',
  shapefile: 'shapefile',
  'feature collection': 'featureCollection',
  'sqlite geodatabase': 'sqlite',
  geopackage: 'sqlite',
  'file geodatabase': 'fileGeodatabase',
  'service definition': 'serviceDefinition',
};

const refuse = (detail: string) => badRequest('Unable to append.', [detail]);

export async function sendAppend(c: Context<AppEnv>) {
  format(c, ['json', 'pjson']);
  const deps = c.get('deps');
  const db = deps.database.db;
  const user = c.get('user');
  const { async, appendItemId, format: wanted, ...options } = readAppendParameters(c.get('params').all());
  const { service, layer } = await requestLayer(c);
  const model = editLayerOf(layer.layerId, layer.tableName, layer.definition, layer.columns);
  // The rows are applied with applyEdits' rules, which ask the same of everyone, owner included:
  // checked now, before the job starts (and again by the job, on the layer as it is then).
  requireEditCapabilities(model.capabilities, options.upsert ? ['create', 'update'] : ['create']);
  if (options.upsert) {
    const indexes = (layer.definition.indexes ?? []) as { fields?: string; isUnique?: boolean }[];
    matchingField(model.fields, indexes, options.upsertMatchingField, OBJECT_ID_FIELD);
  }

  const item = await findItem(db, appendItemId);
  if (!item) throw itemNotFound();
  if (!user || !(await mayReadItem(db, item, user))) throw forbidden();
  const fileType = ITEM_FILE_TYPES[item.type.toLowerCase()];
  if (!fileType) throw refuse(`Item ${item.id} is a ${item.type} item, which append cannot read.`);
  if (wanted && wanted !== fileType)
    throw refuse(`Item ${item.id} is a ${item.type} item, not ${wanted} data.`);
  if (!item.dataKey) throw refuse(`Item ${item.id} has no file.`);

  const jobId = newJobId();
  const input: AppendJobInput = {
    source: {
      jobId,
      fileType,
      sourceKey: item.dataKey,
      sourceSize: item.dataSize,
      ...(options.sourceTableName ? { sourceTableName: options.sourceTableName } : {}),
      ...(options.coordinates ? { coordinates: options.coordinates } : {}),
    },
    serviceItemId: service.serviceItemId,
    layerId: layer.layerId,
    submitter: user.username,
    options,
  };
  const submissionTime = await createJob(c, service, 'append', jobId);
  let handle: Awaited<ReturnType<typeof startAppend>>;
  try {
    handle = await startAppend(c, input);
  } catch (e) {
    await finishJob(db, jobId, { status: 'Failed', error: toGeoError(e).toBody() }, deps.now());
    throw e;
  }
  if (async) return sendJson(c, { statusUrl: statusUrlOf(c, service, jobId) });

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), SYNC_WAIT_MS);
  });
  const result = handle.result();
  // The losing side of the race must not end as an unhandled rejection.
  result.catch(() => undefined);
  try {
    const first = await Promise.race([result, timedOut]);
    if (first === 'timeout') {
      // Cancelled, the job rolls back unless it committed first: then its result is the answer.
      await handle.cancel().catch(() => undefined);
      const settled = await result.catch((e: unknown) => e);
      if (settled instanceof Error || !settled)
        throw refuse('The append took longer than a synchronous request may wait; append with async=true.');
      return sendJson(c, { submissionTime, lastUpdatedTime: deps.now(), ...settled });
    }
    return sendJson(c, { submissionTime, lastUpdatedTime: deps.now(), ...first });
  } catch (e) {
    throw failureOf(e);
  } finally {
    clearTimeout(timer);
  }
}

async function startAppend(c: Context<AppEnv>, input: AppendJobInput) {
  const deps = c.get('deps');
  const client = await deps.temporal();
  return client.workflow.start<typeof appendWorkflow>(APPEND_WORKFLOW, {
    taskQueue: deps.config.temporal.taskQueue,
    workflowId: appendWorkflowId(input.source.jobId),
    args: [input],
    memo: { serviceItemId: input.serviceItemId, reason: 'append' },
  });
}

/** A failed workflow's error as the product's error: the activity's bad-input details, else a 500. */
function failureOf(e: unknown): GeoError {
  for (let cause = e, depth = 0; cause && depth < 6; depth++) {
    if (cause instanceof GeoError) return cause;
    const details = (cause as { details?: unknown[] }).details?.[0] as
      | { code?: number; message?: string; details?: string[] }
      | undefined;
    if (details && typeof details.code === 'number' && typeof details.message === 'string')
      return new GeoError({ code: details.code, message: details.message, details: details.details ?? [] });
    cause = (cause as { cause?: unknown }).cause;
  }
  return toGeoError(e);
}
