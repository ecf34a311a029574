/**
 * The publish workflow's input, result and progress query: shared by the workflow, the API that starts
 * it and the status operation that asks it how far it got. Payloads are ids and counts only.
 */
import { defineQuery } from '@temporalio/workflow';

export const PUBLISH_WORKFLOW = 'publishWorkflow';

export interface PublishWorkflowInput {
  jobId: string;
  serviceItemId: string;
  owner: string;
  fileType: string;
  /** buildInitialCache: the Map Service whose cache is built as a child once the features are loaded. */
  cache?: { serviceItemId: string; jobId: string };
  /** Re-publish into the existing service: swap the new tables in, then rebuild its caches. */
  overwrite?: boolean;
  /** The source file's size in bytes: a small file is published in one step. */
  sourceSize?: number;
}

/**
 * Sources up to this size are planned, loaded, finished and marked ready in one local activity: about
 * 10,000 CSV rows, a second of work, or a few minutes at most when every row is sent to a remote geocoder.
 */
export const SMALL_SOURCE_BYTES = 1024 * 1024;

export interface LayerProgress {
  layerId: number;
  name: string;
  rowsRead: number;
  rowsLoaded: number;
  rowsRejected: number;
  featureCount: number | null;
}

export interface PublishProgress {
  /** planning | loading | finishing | completed | failed */
  phase: string;
  layersTotal: number;
  layersDone: number;
  layers: LayerProgress[];
  /** While the initial cache is built: the Map Service job whose counts the status shows. */
  cacheJobId?: string;
}

export interface PublishWorkflowResult {
  serviceItemId: string;
  featureCount: number;
  rowsRejected: number;
}

export const publishProgressQuery = defineQuery<PublishProgress>('publishProgress');

/** Workflow ids come from the job id, so starting the same job twice joins the running one. */
export const publishWorkflowId = (jobId: string): string => `publish-${jobId}`;
