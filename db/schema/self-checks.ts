import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/** One row per run of the stack self-check workflow, which also writes an object to MinIO. */
export const selfChecks = pgTable('self_checks', {
  id: text('id').primaryKey(),
  objectKey: text('object_key').notNull(),
  workerIdentity: text('worker_identity').notNull(),
  created: bigint('created', { mode: 'number' }).notNull(),
});
