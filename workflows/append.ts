/**
 * append as a durable job: the source staged in the worker in resumable batches, then applied to the
 * layer in one transaction that also marks the job Completed (so a retry never applies it twice), then
 * the tile caches drawn from the service asked to draw the touched areas again, and the staging rows
 * removed. A job that fails is marked Failed with the client's error (or a 500 for anything else).
 */
import {
  getExternalWorkflowHandle,
  isCancellation,
  log,
  ParentClosePolicy,
  proxyActivities,
  startChild,
} from '@temporalio/workflow';
import type { AppendActivities } from '../activities/append/append-activities.js';
import type { Bounds } from '../lib/geometry/types.js';
import { badInputOf } from '../lib/workflow-failures.js';
import type { AppendAnswer, AppendJobInput } from './append-messages.js';
import { DATA_STEP, LONG_STEP, SHORT_STEP } from './retry-presets.js';
import { refreshAreasSignal, tileCacheRefreshWorkflowId } from './tile-cache-messages.js';
import { tileCacheRefreshWorkflow } from './tile-cache-refresh.js';

const { stageAppendSource } = proxyActivities<AppendActivities>(LONG_STEP);
const { applyStagedAppend } = proxyActivities<AppendActivities>(DATA_STEP);
const { failAppendJob, clearAppendStaging } = proxyActivities<AppendActivities>(SHORT_STEP);

export async function appendWorkflow(input: AppendJobInput): Promise<AppendAnswer> {
  const { jobId } = input.source;
  try {
    const staged = await stageAppendSource(input.source);
    const applied = await applyStagedAppend({ ...input, staged });
    for (const cache of applied.areas.length > 0 ? applied.caches : []) {
      // The append is committed and stays so: a cache that cannot be signalled is logged, not fatal.
      await refreshCache(cache, applied.areas).catch((e: unknown) =>
        log.warn('tile cache refresh could not be started', { cache, error: String(e) }),
      );
    }
    await clearAppendStaging(jobId);
    return applied.answer;
  } catch (err) {
    const bad = badInputOf(err);
    const error = bad ?? { code: 500, message: 'Unable to append.', details: ['The append job failed.'] };
    // A cancelled job (its synchronous caller stopped waiting) still ends Failed and leaves no rows.
    if (isCancellation(err)) error.details = ['The append was cancelled.'];
    await failAppendJob({ jobId, error });
    await clearAppendStaging(jobId);
    throw err;
  }
}

/** Signals the cache's refresh run, starting it (areas as its first pending ones) when none runs. */
async function refreshCache(cacheItemId: string, areas: Bounds[]): Promise<void> {
  const workflowId = tileCacheRefreshWorkflowId(cacheItemId);
  try {
    await getExternalWorkflowHandle(workflowId).signal(refreshAreasSignal, { areas });
    return;
  } catch {
    // No run: start one below.
  }
  try {
    await startChild(tileCacheRefreshWorkflow, {
      workflowId,
      args: [{ serviceItemId: cacheItemId, pending: areas }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch {
    // Started meanwhile by an edit's signal: signal that run.
    await getExternalWorkflowHandle(workflowId).signal(refreshAreasSignal, { areas });
  }
}
