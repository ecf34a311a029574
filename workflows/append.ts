/**
 * append: reads the source item with the publish readers (an activity, since they do I/O) into rows
 * the API then applies to the layer with applyEdits' rules, in one transaction.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { AppendActivities } from '../activities/append/append-activities.js';
import type { AppendSourceInput, AppendSourceResult } from './append-messages.js';
import { STEP_RETRY } from './retry-presets.js';

const { readAppendSource } = proxyActivities<AppendActivities>({
  startToCloseTimeout: '10 minutes',
  retry: STEP_RETRY,
});

export async function appendWorkflow(input: AppendSourceInput): Promise<AppendSourceResult> {
  return readAppendSource(input);
}
