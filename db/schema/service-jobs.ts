import { bigint, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * One row per asynchronous FeatureServer job (append, calculate, truncate, definition changes). A
 * job's work and its Completed row commit in one transaction, so a retried step sees the job done.
 */
export const serviceJobs = pgTable('service_jobs', {
  jobId: text('job_id').primaryKey(),
  operation: text('operation').notNull(),
  serviceItemId: text('service_item_id').notNull(),
  submitter: text('submitter').notNull(),
  status: text('status').notNull(),
  submissionTime: bigint('submission_time', { mode: 'number' }).notNull(),
  lastUpdatedTime: bigint('last_updated_time', { mode: 'number' }).notNull(),
  result: jsonb('result'),
  error: jsonb('error'),
  /** Web Mercator envelopes the job's committed edits touched, for the tile caches drawn from the service. */
  refreshAreas: jsonb('refresh_areas'),
  /**
   * What calculate, truncate or a definition change is to do, as the request checked it
   * (db/repositories/layer-work.ts): kept here, not in the workflow's input, so a large definition
   * fits (Temporal refuses inputs over 2 MB) and the caller's values stay out of Temporal's history.
   */
  work: jsonb('work'),
});

/** The rows of an append's source, staged in batches by the worker before they are applied at once. */
export const appendStaging = pgTable(
  'append_staging',
  {
    jobId: text('job_id').notNull(),
    seq: integer('seq').notNull(),
    attributes: jsonb('attributes').notNull(),
    geometry: jsonb('geometry'),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] })],
);
