/**
 * analyze as a short workflow: one activity reads the source the API stored (or the item's data) and
 * writes the answer to the object store. Only keys and sizes pass through the history, never rows.
 * The API waits for the result (bounded by `timeoutMs`) and removes the temporary objects itself.
 * A local activity: it runs inside the workflow task on the worker that took it, which saves an
 * activity-task round trip a caller would wait for (about 80 ms on a loaded machine), and it takes
 * the local-activity slots, so an analyze does not queue behind long layer loads. A parse longer than
 * the workflow task timeout is fine: the SDK heartbeats the task while it runs.
 */
import { proxyLocalActivities } from '@temporalio/workflow';
import type { AnalyzeActivities, AnalyzeInput, AnalyzeOutput } from '../activities/publish/analyze-source.js';
import { ANALYZE_RETRY } from './retry-presets.js';

export const ANALYZE_WORKFLOW = 'analyzeWorkflow';

export interface AnalyzeWorkflowInput {
  analysis: AnalyzeInput;
  /** The whole analysis, every attempt included, ends within this many milliseconds. */
  timeoutMs: number;
}

export async function analyzeWorkflow(input: AnalyzeWorkflowInput): Promise<AnalyzeOutput> {
  const { analyzeSource } = proxyLocalActivities<AnalyzeActivities>({
    startToCloseTimeout: input.timeoutMs,
    scheduleToCloseTimeout: input.timeoutMs,
    retry: ANALYZE_RETRY,
  });
  return analyzeSource(input.analysis);
}
