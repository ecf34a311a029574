/**
 * calculate, truncate or a definition change as a durable job: one activity does the work in a
 * transaction that also marks the job Completed (so a retry never applies it twice), then the tile
 * caches drawn from the service are asked to draw the touched areas again. A job that fails is marked
 * Failed with the client's error (or a 500 for anything else) and changed nothing.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ServiceJobActivities } from '../activities/service-jobs/service-job-activities.js';
import { badInputOf } from '../lib/workflow-failures.js';
import { DATA_STEP, SHORT_STEP } from './retry-presets.js';
import { jobFailure, type ServiceJobAnswer, type ServiceJobInput } from './service-job-messages.js';
import { refreshCaches } from './tile-cache-signal.js';

const { runServiceJob } = proxyActivities<ServiceJobActivities>(DATA_STEP);
const { failServiceJob } = proxyActivities<ServiceJobActivities>(SHORT_STEP);

export async function serviceJobWorkflow(input: ServiceJobInput): Promise<ServiceJobAnswer> {
  try {
    const done = await runServiceJob(input);
    await refreshCaches(done.caches, done.areas);
    return done.answer;
  } catch (err) {
    const error = badInputOf(err) ?? jobFailure(input.operation, 'failed');
    await failServiceJob({ jobId: input.jobId, error });
    throw err;
  }
}
