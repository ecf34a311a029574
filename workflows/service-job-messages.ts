/**
 * The jobs of calculate, truncate and the admin API's definition changes run asynchronously: their
 * input and answer, shared by the workflow, its activities and the API that starts them. The work is
 * everything the request computed (db/repositories/layer-work.ts), so the job does what the request
 * checked, as the caller it checked; it is stored in the job's row, and the workflow carries ids.
 */
import type { LayerWork } from '../db/repositories/layer-work.js';
import type { ErrorBody } from '../lib/errors.js';
import type { Bounds } from '../lib/geometry/types.js';

export const SERVICE_JOB_WORKFLOW = 'serviceJobWorkflow';

export type ServiceJobOperation =
  | 'calculate'
  | 'truncate'
  | 'addToDefinition'
  | 'updateDefinition'
  | 'deleteFromDefinition';

/** The job's ids only: its work is in its `service_jobs` row (large, and the caller's data). */
export interface ServiceJobInput {
  jobId: string;
  operation: ServiceJobOperation;
}

/** A job as the request records it before its workflow starts. */
export interface ServiceJobRequest extends ServiceJobInput {
  work: LayerWork;
}

/** The job's answer as the status resource shows it. */
export type ServiceJobAnswer = Record<string, unknown> & { status: 'Completed' | 'Failed' };

export interface ServiceJobDone {
  answer: ServiceJobAnswer;
  /** Tile caches drawn from the service, and the Web Mercator areas they must draw again. */
  caches: string[];
  areas: Bounds[];
}

export interface ServiceJobFailure {
  jobId: string;
  error: ErrorBody;
}

/** Workflow ids come from the job id, so starting the same job twice joins the running one. */
export const serviceJobWorkflowId = (operation: ServiceJobOperation, jobId: string): string =>
  `${operation}-${jobId}`;

const FAILURE_MESSAGES: Record<ServiceJobOperation, string> = {
  calculate: 'Unable to complete operation.',
  truncate: 'Unable to truncate.',
  addToDefinition: 'Unable to add to definition.',
  updateDefinition: 'Unable to update definition.',
  deleteFromDefinition: 'Unable to delete from definition.',
};

/** The error of a job that failed for a reason not the client's (or ended without saying why). */
export const jobFailure = (operation: ServiceJobOperation, why: string): ErrorBody => ({
  code: 500,
  message: FAILURE_MESSAGES[operation],
  details: [`The ${operation} job ${why}.`],
});

export const isServiceJobOperation = (operation: string): operation is ServiceJobOperation =>
  operation in FAILURE_MESSAGES;
