/**
 * The append job's input and results, shared by the workflow, its activities and the API that starts
 * it. The source's rows travel through the staging table (db/repositories/append-staging.ts), never the
 * workflow history.
 */
import type { PublishFileType } from '../db/schema/publish-request.js';
import type { AppendOptions } from '../lib/edit/append-parameters.js';
import type { ErrorBody } from '../lib/errors.js';
import type { Bounds, SpatialReference } from '../lib/geometry/types.js';

export const APPEND_WORKFLOW = 'appendWorkflow';

export interface AppendSourceInput {
  jobId: string;
  fileType: PublishFileType;
  sourceKey: string;
  sourceSize: number;
  /** The table, sheet or layer of a multi-table source; absent: the first. */
  sourceTableName?: string;
  /** appendSourceInfo of a CSV or Excel source: the columns holding x and y. */
  coordinates?: { xField: string; yField: string };
  csv?: { delimiter?: string; qualifier?: string };
}

/** The whole job: the source, the target layer, who asked, and the request's append options. */
export interface AppendJobInput {
  source: AppendSourceInput;
  serviceItemId: string;
  layerId: number;
  /** The submitter's user name: edits are made as that user (editor tracking, ownership). */
  submitter: string;
  options: Omit<AppendOptions, 'async' | 'appendItemId' | 'format'>;
}

/** The staged source: its row count, column names and the spatial reference of its geometries. */
export interface AppendStaged {
  rowCount: number;
  headers: string[];
  spatialReference: SpatialReference;
}

/** Where a staging attempt has got to: the reader's resume point and the rows staged before it. */
export interface StagingProgress {
  staged: number;
  next: { byteOffset: number; rowNumber: number };
  /** Every row is staged: a retry only describes the source again. */
  done?: boolean;
}

/** The job's answer as the status resource shows it (status, counts, the first results). */
export type AppendAnswer = Record<string, unknown> & { status: 'Completed' | 'Failed' };

export interface AppendApplied {
  answer: AppendAnswer;
  /** Tile caches drawn from the service, and the Web Mercator areas they must draw again. */
  caches: string[];
  areas: Bounds[];
}

export interface AppendFailure {
  jobId: string;
  error: ErrorBody;
}

/** Workflow ids come from the job id, so starting the same job twice joins the running one. */
export const appendWorkflowId = (jobId: string): string => `append-${jobId}`;
