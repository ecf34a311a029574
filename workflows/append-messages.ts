/**
 * The append workflow's input and result, shared by the workflow, its activity and the API that starts
 * it. The rows themselves travel through the object store (`rowsKey`), never the workflow history.
 */
import type { PublishFileType } from '../db/schema/publish-request.js';
import type { SpatialReference } from '../lib/geometry/types.js';

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
  /** More rows than this fail the job instead of filling memory. */
  maxRows: number;
}

/** One source row: the source's column names and values, and its geometry (WGS84) when it has one. */
export interface AppendRecord {
  attributes: Record<string, string | number | boolean | null>;
  geometry?: Record<string, unknown>;
}

export interface AppendSourceResult {
  rowsKey: string;
  rowCount: number;
  headers: string[];
  /** The spatial reference of the rows' geometries. */
  spatialReference: SpatialReference;
}

/** Workflow ids come from the job id, so starting the same job twice joins the running one. */
export const appendWorkflowId = (jobId: string): string => `append-${jobId}`;
