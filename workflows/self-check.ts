/**
 * The stack self-check: one workflow that runs through a real worker and writes an object to MinIO and a
 * row to the database. The launcher runs it at start, and the integration tests run it too. Its steps
 * are local activities: they need no activity slot of the worker, which after a restart may all be taken
 * by the long steps of the jobs the crash interrupted (the launcher gives the check 2 minutes).
 */
import { proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { SelfCheckActivities } from '../activities/self-check.js';
import { SELF_CHECK_RETRY } from './retry-presets.js';

const { writeSelfCheckObject, recordSelfCheck } = proxyLocalActivities<SelfCheckActivities>({
  startToCloseTimeout: '30 seconds',
  retry: SELF_CHECK_RETRY,
});

export interface SelfCheckInput {
  checkId: string;
}

export interface SelfCheckResult {
  checkId: string;
  objectKey: string;
  workerIdentity: string;
  workflowId: string;
}

export async function selfCheckWorkflow(input: SelfCheckInput): Promise<SelfCheckResult> {
  const objectKey = await writeSelfCheckObject(input.checkId);
  const workerIdentity = await recordSelfCheck(input.checkId, objectKey);
  return { checkId: input.checkId, objectKey, workerIdentity, workflowId: workflowInfo().workflowId };
}
