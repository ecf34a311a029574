/**
 * FeatureServer/{layer}/append: rows of an uploaded item added to the layer, or with upsert matched to
 * its features by a key. The item is read by the publish readers in a Temporal workflow (api/ reaches
 * activities/ only through Temporal); the rows are then applied here with applyEdits' rules (edit
 * capabilities, ownership, editor tracking, one transaction under rollbackOnFailure, cache refresh).
 * async=true answers a statusUrl at once; the job's state is kept in the object store.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { mayReadItem } from '../../db/repositories/access.js';
import { objectIdsByKey } from '../../db/repositories/append-keys.js';
import { findItem } from '../../db/repositories/items.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import type { UserRow } from '../../db/repositories/users.js';
import type { PublishFileType } from '../../db/schema/publish-request.js';
import { type AppendOptions, readAppendParameters } from '../../lib/edit/append-parameters.js';
import { type AppendRow, appendEdits, appendFieldMap, upsertKeys } from '../../lib/edit/append-plan.js';
import { requireEditCapabilities } from '../../lib/edit/capabilities.js';
import { type EditLayer, editLayerOf, OBJECT_ID_FIELD } from '../../lib/edit/edit-layer.js';
import { badRequest, forbidden, GeoError, itemNotFound, toGeoError } from '../../lib/errors.js';
import type { appendWorkflow } from '../../workflows/append.js';
import {
  APPEND_WORKFLOW,
  type AppendSourceInput,
  type AppendSourceResult,
  appendWorkflowId,
} from '../../workflows/append-messages.js';
import type { AppDeps, AppEnv } from '../env.js';
import { format, sendJson } from '../render.js';
import { applyEdits } from './feature-edits.js';
import { requestLayer } from './request-layer.js';
import { answerAsJob } from './service-jobs.js';

/** Rows read from one source at most: they are held in memory and applied in one transaction. */
export const APPEND_MAX_ROWS = 100_000;
/** How long a synchronous append waits for the source to be read before telling the client to use async. */
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
};

const refuse = (detail: string) => badRequest('Unable to append.', [detail]);

export async function sendAppend(c: Context<AppEnv>) {
  format(c, ['json', 'pjson']);
  const deps = c.get('deps');
  const db = deps.database.db;
  const user = c.get('user');
  const options = readAppendParameters(c.get('params').all());
  const { service, layer } = await requestLayer(c);
  const model = editLayerOf(layer.layerId, layer.tableName, layer.definition, layer.columns);
  // The rows are applied by applyEdits, which asks the same of everyone, owner included: checked now,
  // before the source is read.
  requireEditCapabilities(model.capabilities, options.upsert ? ['create', 'update'] : ['create']);
  const matching = options.upsert ? matchingField(model, layer, options) : null;

  const item = await findItem(db, options.appendItemId);
  if (!item) throw itemNotFound();
  if (!user || !(await mayReadItem(db, item, user))) throw forbidden();
  const fileType = ITEM_FILE_TYPES[item.type.toLowerCase()];
  if (!fileType) throw refuse(`Item ${item.id} is a ${item.type} item, which append cannot read.`);
  if (options.format && options.format !== fileType)
    throw refuse(`Item ${item.id} is a ${item.type} item, not ${options.format} data.`);
  if (!item.dataKey) throw refuse(`Item ${item.id} has no file.`);

  const jobId = randomUUID().replaceAll('-', '');
  const input: AppendSourceInput = {
    jobId,
    fileType,
    sourceKey: item.dataKey,
    sourceSize: item.dataSize,
    maxRows: APPEND_MAX_ROWS,
    ...(options.sourceTableName ? { sourceTableName: options.sourceTableName } : {}),
    ...(options.coordinates ? { coordinates: options.coordinates } : {}),
  };
  const client = await deps.temporal();
  const handle = await client.workflow.start<typeof appendWorkflow>(APPEND_WORKFLOW, {
    taskQueue: deps.config.temporal.taskQueue,
    workflowId: appendWorkflowId(jobId),
    args: [input],
  });
  // A synchronous request that gave up waiting must not apply the rows behind the client's back.
  let abandoned = false;
  const run = async () => {
    const read = await handle.result();
    if (abandoned) {
      await deps.store.remove(read.rowsKey).catch(() => undefined);
      throw refuse('The append was abandoned.');
    }
    return applyAppend(deps, service, layer, model, options, matching, read, user);
  };
  if (options.async) return answerAsJob(c, service, 'append', run, failureOf);
  const submissionTime = deps.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandoned = true;
      void handle.cancel().catch(() => undefined);
      reject(
        badRequest('Unable to append.', [
          'Reading the source took longer than a synchronous request may wait; append with async=true.',
        ]),
      );
    }, SYNC_WAIT_MS);
  });
  // The losing side of the race must not end as an unhandled rejection.
  const work = run().catch((e: unknown) => Promise.reject(failureOf(e)));
  work.catch(() => undefined);
  try {
    const result = await Promise.race([work, timeout]);
    return sendJson(c, { submissionTime, lastUpdatedTime: deps.now(), ...result });
  } finally {
    clearTimeout(timer);
  }
}

/** The target field an upsert matches on: the object id, or a field with a unique index. */
function matchingField(
  model: EditLayer,
  layer: HostedLayerRow,
  options: AppendOptions,
): { name: string; column: string } {
  const wanted = options.upsertMatchingField ?? OBJECT_ID_FIELD;
  if (wanted.toLowerCase() === OBJECT_ID_FIELD.toLowerCase())
    return { name: OBJECT_ID_FIELD, column: 'objectid' };
  const field = model.fields.find((f) => f.name.toLowerCase() === wanted.toLowerCase());
  if (!field) throw refuse(`upsertMatchingField '${wanted}' is not a field of the layer.`);
  const indexes = (layer.definition.indexes ?? []) as { fields?: string; isUnique?: boolean }[];
  if (!indexes.some((i) => i.isUnique && i.fields?.toLowerCase() === field.name.toLowerCase()))
    throw refuse(`upsertMatchingField '${field.name}' has no unique index; add one with addToDefinition.`);
  return { name: field.name, column: field.column };
}

async function applyAppend(
  deps: AppDeps,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  model: EditLayer,
  options: AppendOptions,
  matching: { name: string; column: string } | null,
  read: AppendSourceResult,
  user: UserRow | undefined,
) {
  const rows = JSON.parse((await deps.store.getBuffer(read.rowsKey)).toString('utf8')) as AppendRow[];
  await deps.store.remove(read.rowsKey).catch(() => undefined);
  const targets = [OBJECT_ID_FIELD, ...model.fields.map((f) => f.name)];
  const map = appendFieldMap(read.headers, targets, options, OBJECT_ID_FIELD);
  let keys: (string | null)[] | null = null;
  let existing = new Map<string, number>();
  if (matching) {
    const keyColumn = map.get(matching.name);
    if (!keyColumn) throw refuse(`No source column is mapped to the matching field '${matching.name}'.`);
    keys = upsertKeys(rows, keyColumn);
    const present = keys.filter((k): k is string => k !== null);
    existing = await objectIdsByKey(deps.database, layer.tableName, matching.column, present);
  }
  const edits = appendEdits(rows, map, keys, existing, options, OBJECT_ID_FIELD);
  const [result] = await applyEdits(deps, service, [{ layer, edits: { ...edits, deletes: [] } }], {
    user,
    inSR: read.spatialReference,
    rollbackOnFailure: options.rollbackOnFailure,
  });
  const failed = [...result.addResults, ...result.updateResults].some((r) => !r.success);
  return {
    status: failed && options.rollbackOnFailure ? ('Failed' as const) : ('Completed' as const),
    recordCount: rows.length,
    skippedCount: edits.skipped,
    addResults: result.addResults,
    updateResults: result.updateResults,
  };
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
