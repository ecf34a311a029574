/**
 * The fence between load attempts of one job's layer. Temporal retries a load whose heartbeat stopped
 * (on the embedded PGlite one long statement holds the worker's thread), while the attempt it gave up
 * on may still be running in the same process. Each attempt takes a new number when it starts; every
 * batch's transaction reads the number `FOR UPDATE` and writes only if it is still its own. Taking a
 * number waits for a batch of the old attempt that is mid-transaction, so once a new attempt has its
 * number the old one cannot commit another row.
 */
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../client.js';
import { checkAttempt, type LoadFence } from './load-fence.js';

/** Starts an attempt: the next number for the job's layer, which makes any earlier attempt stale. */
export async function beginLoadAttempt(
  db: DatabaseHandle,
  jobId: string,
  layerId: number,
): Promise<LoadFence> {
  const rows = await db.rows<{ attempt: number }>(sql`
    insert into publish_load_attempts (job_id, layer_id, attempt) values (${jobId}, ${layerId}, 1)
    on conflict (job_id, layer_id) do update set attempt = publish_load_attempts.attempt + 1
    returning attempt`);
  return { jobId, layerId, attempt: Number(rows[0]?.attempt) };
}

/** The check on its own, for a batch that writes no feature rows. */
export async function assertCurrentAttempt(db: DatabaseHandle, fence: LoadFence): Promise<void> {
  const rows = await db.rows<{ attempt: number }>(sql`
    select attempt from publish_load_attempts
    where job_id = ${fence.jobId} and layer_id = ${fence.layerId}`);
  checkAttempt(fence, rows);
}
