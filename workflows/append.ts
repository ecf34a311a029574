/**
 * append as a durable job: the source staged in the worker in resumable batches, then applied to the
 * layer in one transaction that also marks the job Completed (so a retry never applies it twice), then
 * the tile caches drawn from the service asked to draw the touched areas again, and the staging rows
 * removed. A job that fails is marked Failed with the client's error (or a 500 for anything else).
 */
import { isCancellation, proxyActivities } from '@temporalio/workflow';
import type { AppendActivities } from '../activities/append/append-activities.js';
import { badInputOf } from '../lib/workflow-failures.js';
import type { AppendAnswer, AppendJobInput } from './append-messages.js';
import { DATA_STEP, LONG_STEP, SHORT_STEP } from './retry-presets.js';
import { refreshCaches } from './tile-cache-signal.js';

const { stageAppendSource } = proxyActivities<AppendActivities>(LONG_STEP);
const { applyStagedAppend } = proxyActivities<AppendActivities>(DATA_STEP);
const { failAppendJob, clearAppendStaging } = proxyActivities<AppendActivities>(SHORT_STEP);

export async function appendWorkflow(input: AppendJobInput): Promise<AppendAnswer> {
  const { jobId } = input.source;
  try {
    const staged = await stageAppendSource(input.source);
    const applied = await applyStagedAppend({ ...input, staged });
    await refreshCaches(applied.caches, applied.areas);
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
