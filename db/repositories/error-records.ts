/** Pages of the rows a publish job kept for review (persistErrorRecordsForReview), in row order. */
import { and, asc, count, eq } from 'drizzle-orm';
import type { Database } from '../client.js';
import { publishErrorRecords } from '../schema/publishing.js';
import type { ErrorRecord } from './jobs.js';

export async function errorRecordPage(
  db: Database,
  jobId: string,
  layerId: number,
  offset: number,
  limit: number,
): Promise<{ total: number; records: ErrorRecord[] }> {
  const where = and(eq(publishErrorRecords.jobId, jobId), eq(publishErrorRecords.layerId, layerId));
  const [{ total }] = await db.select({ total: count() }).from(publishErrorRecords).where(where);
  const rows = await db
    .select()
    .from(publishErrorRecords)
    .where(where)
    .orderBy(asc(publishErrorRecords.rowNumber))
    .offset(offset)
    .limit(limit);
  return {
    total: Number(total),
    records: rows.map(({ layerId: l, rowNumber, reason, record }) => ({
      layerId: l,
      rowNumber,
      reason,
      record,
    })),
  };
}
