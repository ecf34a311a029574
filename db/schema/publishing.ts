import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { JobRequest, PublishPlan } from './publish-request.js';

/**
 * Publish jobs. A job outlives a failed service item (which is deleted so nothing half-built stays
 * visible), so the status operation can still answer with the reason: no foreign key to items.
 */
export const publishJobs = pgTable(
  'publish_jobs',
  {
    id: text('id').primaryKey(),
    serviceItemId: text('service_item_id').notNull(),
    sourceItemId: text('source_item_id'),
    owner: text('owner').notNull(),
    fileType: text('file_type').notNull(),
    jobType: text('job_type').notNull().default('publish'),
    workflowId: text('workflow_id').notNull(),
    /** processing | completed | failed */
    status: text('status').notNull(),
    /** Plain text while processing or completed; a JSON `{code,message}` string when failed. */
    statusMessage: text('status_message').notNull().default(''),
    /** The checked publish request: everything the workflow's activities need, keyed by job id. */
    request: jsonb('request').$type<JobRequest>().notNull(),
    /** Fields, location columns and tables resolved from the data by the workflow's first activity. */
    plan: jsonb('plan').$type<PublishPlan>(),
    /** Last counts written by the activities (rows read, loaded, rejected per layer). */
    progress: jsonb('progress').$type<Record<string, unknown>>().notNull().default({}),
    created: bigint('created', { mode: 'number' }).notNull(),
    modified: bigint('modified', { mode: 'number' }).notNull(),
  },
  (t) => [index('publish_jobs_service_item_idx').on(t.serviceItemId)],
);

/** Hosted feature services; visible under rest/services only once status is `ready`. */
export const hostedServices = pgTable(
  'hosted_services',
  {
    serviceItemId: text('service_item_id').primaryKey(),
    name: text('name').notNull(),
    owner: text('owner').notNull(),
    /** processing | ready */
    status: text('status').notNull(),
    /** Service-level JSON properties (description, capabilities, spatialReference, extents…). */
    definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
    created: bigint('created', { mode: 'number' }).notNull(),
    modified: bigint('modified', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('hosted_services_name_lower_idx').on(sql`lower(${t.name})`)],
);

/** One row per layer or table of a hosted service, naming its feature table and field columns. */
export const hostedLayers = pgTable(
  'hosted_layers',
  {
    serviceItemId: text('service_item_id')
      .notNull()
      .references(() => hostedServices.serviceItemId, { onDelete: 'cascade' }),
    layerId: integer('layer_id').notNull(),
    tableName: text('table_name').notNull(),
    /** The layer resource JSON (2.8.4 keys, fields with their Esri names). */
    definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
    /** Esri field name → physical column (`a_<n>`), in field order. */
    columns: jsonb('columns').$type<{ name: string; column: string }[]>().notNull(),
    featureCount: bigint('feature_count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.serviceItemId, t.layerId] })],
);

/** Rows that could not be loaded, kept when the publisher asked for persistErrorRecordsForReview. */
export const publishErrorRecords = pgTable(
  'publish_error_records',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => publishJobs.id, { onDelete: 'cascade' }),
    layerId: integer('layer_id').notNull(),
    rowNumber: integer('row_number').notNull(),
    reason: text('reason').notNull(),
    record: jsonb('record').$type<unknown[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.layerId, t.rowNumber] })],
);

/**
 * The load attempt of each job's layer that may still write: bumped when a load attempt starts, and
 * read `FOR UPDATE` in every batch's transaction, so an attempt Temporal gave up on (a statement held
 * the worker past the heartbeat timeout) stops at its next batch instead of loading rows twice.
 */
export const publishLoadAttempts = pgTable(
  'publish_load_attempts',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => publishJobs.id, { onDelete: 'cascade' }),
    layerId: integer('layer_id').notNull(),
    attempt: integer('attempt').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.layerId] })],
);
