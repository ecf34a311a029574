/**
 * The rows of an append's source staged in the database: the worker writes them in numbered batches
 * (a rewritten number is ignored, so a resumed read never stages a row twice), the apply step reads
 * them back in order, a batch at a time, inside the edit transaction.
 */
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../client.js';
import type { EditTransaction } from './feature-edits.js';

export interface StagedRow {
  attributes: Record<string, string | number | boolean | null>;
  geometry?: Record<string, unknown>;
}

/** Rows per insert statement: two parameters each, far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 1000;

/** Stages `rows` as numbers `firstSeq`, `firstSeq + 1`, ...; numbers already staged are left as they are. */
export async function stageRows(
  db: DatabaseHandle,
  jobId: string,
  firstSeq: number,
  rows: readonly StagedRow[],
): Promise<void> {
  for (let from = 0; from < rows.length; from += INSERT_CHUNK) {
    const values = rows
      .slice(from, from + INSERT_CHUNK)
      .map(
        (r, i) =>
          sql`(${jobId}, ${firstSeq + from + i}, ${JSON.stringify(r.attributes)}::jsonb, ${
            r.geometry ? JSON.stringify(r.geometry) : null
          }::jsonb)`,
      );
    await db.rows(
      sql`insert into append_staging (job_id, seq, attributes, geometry) values ${sql.join(values, sql`, `)}
          on conflict do nothing`,
    );
  }
}

/** How many rows of the job are staged (they are numbered from 0 without gaps). */
export async function stagedRowCount(db: DatabaseHandle, jobId: string): Promise<number> {
  const rows = await db.rows<{ n: string | number }>(
    sql`select count(*) as n from append_staging where job_id = ${jobId}`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** The staged rows numbered above `afterSeq`, at most `limit`, in order. */
export async function stagedBatch(
  tx: EditTransaction,
  jobId: string,
  afterSeq: number,
  limit: number,
): Promise<{ seq: number; row: StagedRow }[]> {
  const rows = await tx.rows<{ seq: number; attributes: unknown; geometry: unknown }>(
    sql`select seq, attributes, geometry from append_staging
        where job_id = ${jobId} and seq > ${afterSeq} order by seq limit ${limit}`,
  );
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return rows.map((r) => ({
    seq: Number(r.seq),
    row: {
      attributes: json(r.attributes) as StagedRow['attributes'],
      ...(r.geometry ? { geometry: json(r.geometry) as Record<string, unknown> } : {}),
    },
  }));
}

/** A key that two staged rows share in `column` (compared as text, empty keys ignored), or null. */
export async function sharedStagedKey(
  tx: EditTransaction,
  jobId: string,
  column: string,
): Promise<{ key: string; seq: number } | null> {
  const rows = await tx.rows<{ k: string; seq: number }>(
    sql`select attributes->>${column} as k, max(seq) as seq from append_staging
        where job_id = ${jobId} and coalesce(attributes->>${column}, '') <> ''
        group by 1 having count(*) > 1 order by 2 limit 1`,
  );
  return rows[0] ? { key: rows[0].k, seq: Number(rows[0].seq) } : null;
}

export async function clearStaging(db: DatabaseHandle, jobId: string): Promise<void> {
  await db.rows(sql`delete from append_staging where job_id = ${jobId}`);
}
