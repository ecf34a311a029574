/**
 * The stack self-check: one workflow that runs through a real worker and writes an object to MinIO and a
 * row to the database. The launcher runs it at start, and the integration tests run it too.
 */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { SelfCheckActivities } from '../activities/self-check.js';
import { SELF_CHECK_RETRY } from './retry-presets.js';

const { writeSelfCheckObject, recordSelfCheck } = proxyActivities<SelfCheckActivities>({
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
