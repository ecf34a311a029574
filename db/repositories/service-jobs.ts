/**
 * The state of asynchronous FeatureServer jobs. A job that runs in the worker writes Completed in the
 * transaction that does its work (`lockJob` first, then `completeJobIn`), so a retried step that finds
 * its job no longer Executing knows the work is done and returns the stored answer.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { ErrorBody } from '../../lib/errors.js';
import type { Bounds } from '../../lib/geometry/types.js';
import type { Database } from '../client.js';
import { serviceJobs } from '../schema/service-jobs.js';
import type { EditTransaction } from './feature-edits.js';

export type ServiceJobRow = typeof serviceJobs.$inferSelect;
export type JobStatus = 'Executing' | 'Completed' | 'Failed';

export async function insertJob(
  db: Database,
  row: Omit<typeof serviceJobs.$inferInsert, 'status' | 'lastUpdatedTime'>,
): Promise<void> {
  await db
    .insert(serviceJobs)
    .values({ ...row, status: 'Executing', lastUpdatedTime: row.submissionTime })
    .onConflictDoNothing();
}

export async function findJob(db: Database, jobId: string): Promise<ServiceJobRow | undefined> {
  const rows = await db.select().from(serviceJobs).where(eq(serviceJobs.jobId, jobId)).limit(1);
  return rows[0];
}

/** Ends a job still Executing; a job already ended keeps its first outcome. */
export async function finishJob(
  db: Database,
  jobId: string,
  outcome:
    | { status: 'Completed'; result: Record<string, unknown> }
    | { status: 'Failed'; error: ErrorBody; result?: Record<string, unknown> },
  now: number,
): Promise<void> {
  await db
    .update(serviceJobs)
    .set({
      status: outcome.status,
      result: outcome.result ?? null,
      error: outcome.status === 'Failed' ? outcome.error : null,
      lastUpdatedTime: now,
    })
    .where(and(eq(serviceJobs.jobId, jobId), eq(serviceJobs.status, 'Executing')));
}

/** The job's row locked until the transaction ends: a second attempt of the same step waits here. */
export async function lockJob(
  tx: EditTransaction,
  jobId: string,
): Promise<
  | {
      status: JobStatus;
      result: Record<string, unknown> | null;
      refreshAreas: Bounds[] | null;
      work: unknown;
    }
  | undefined
> {
  const rows = await tx.rows<{ status: JobStatus; result: unknown; refresh_areas: unknown; work: unknown }>(
    sql`select status, result, refresh_areas, work from service_jobs where job_id = ${jobId} for update`,
  );
  const r = rows[0];
  if (!r) return undefined;
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return {
    status: r.status,
    result: json(r.result) as Record<string, unknown> | null,
    refreshAreas: json(r.refresh_areas) as Bounds[] | null,
    work: json(r.work),
  };
}

/** Marks the job Completed inside the transaction that did its work. */
export async function completeJobIn(
  tx: EditTransaction,
  jobId: string,
  result: Record<string, unknown>,
  refreshAreas: Bounds[],
  now: number,
): Promise<void> {
  await tx.rows(
    sql`update service_jobs set status = 'Completed', result = ${JSON.stringify(result)}::jsonb,
        refresh_areas = ${JSON.stringify(refreshAreas)}::jsonb, last_updated_time = ${now}
        where job_id = ${jobId}`,
  );
}
