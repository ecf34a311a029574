import { and, eq } from 'drizzle-orm';
import { normalizeItemId as canonical } from '../../lib/access/items.js';
import type { Database } from '../client.js';
import { isTileRequest, type PublishRequest } from '../schema/publish-request.js';
import { publishErrorRecords, publishJobs } from '../schema/publishing.js';
import { notifyJobFinished } from './job-notifications.js';

export type PublishJobRow = typeof publishJobs.$inferSelect;
/** A job that publishes features (its request is a PublishRequest, not a TileRequest). */
export type FeatureJobRow = PublishJobRow & { request: PublishRequest };

export const isFeatureJob = (row: PublishJobRow): row is FeatureJobRow => !isTileRequest(row.request);
export type NewPublishJob = typeof publishJobs.$inferInsert;
export type JobStatus = 'processing' | 'completed' | 'failed';

export async function insertJob(db: Database, job: NewPublishJob): Promise<PublishJobRow> {
  const rows = await db.insert(publishJobs).values(job).returning();
  return rows[0]!;
}

export async function findJob(db: Database, id: string): Promise<PublishJobRow | undefined> {
  const rows = await db.select().from(publishJobs).where(eq(publishJobs.id, id)).limit(1);
  return rows[0];
}

export async function jobsForItem(db: Database, serviceItemId: string): Promise<PublishJobRow[]> {
  const rows = await db.select().from(publishJobs).where(eq(publishJobs.serviceItemId, serviceItemId));
  return rows.sort((a, b) => b.created - a.created);
}

/** The most recent job of a service item, for status calls that omit the job id. */
export async function latestJobForItem(
  db: Database,
  serviceItemId: string,
): Promise<PublishJobRow | undefined> {
  return (await jobsForItem(db, canonical(serviceItemId)))[0];
}

export async function updateJobProgress(
  db: Database,
  id: string,
  progress: Record<string, unknown>,
  modified: number,
): Promise<void> {
  await db.update(publishJobs).set({ progress, modified }).where(eq(publishJobs.id, id));
}

/**
 * Sets a final state; a job already completed or failed keeps its first outcome. Status calls waiting
 * for the job hear of it once this commits (job-notifications.ts).
 */
export async function finishJob(
  db: Database,
  id: string,
  status: Exclude<JobStatus, 'processing'>,
  statusMessage: string,
  modified: number,
): Promise<void> {
  await db
    .update(publishJobs)
    .set({ status, statusMessage, modified })
    .where(and(eq(publishJobs.id, id), eq(publishJobs.status, 'processing')));
  await notifyJobFinished(db, id);
}

export interface ErrorRecord {
  layerId: number;
  rowNumber: number;
  reason: string;
  record: unknown[];
}

/** Keeps rejected rows for review; a retried batch writes the same keys, so nothing doubles. */
export async function insertErrorRecords(db: Database, jobId: string, records: ErrorRecord[]): Promise<void> {
  if (records.length === 0) return;
  await db
    .insert(publishErrorRecords)
    .values(records.map((r) => ({ jobId, ...r })))
    .onConflictDoNothing();
}

export async function listErrorRecords(db: Database, jobId: string, layerId: number): Promise<ErrorRecord[]> {
  const rows = await db
    .select()
    .from(publishErrorRecords)
    .where(and(eq(publishErrorRecords.jobId, jobId), eq(publishErrorRecords.layerId, layerId)));
  return rows
    .map(({ layerId: l, rowNumber, reason, record }) => ({ layerId: l, rowNumber, reason, record }))
    .sort((a, b) => a.rowNumber - b.rowNumber);
}
