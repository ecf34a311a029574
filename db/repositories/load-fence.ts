/**
 * The load attempt fence as a batch's transaction checks it (load-attempts.ts has the rest), apart
 * from drizzle, so that a load thread checks it on a connection of its own without loading drizzle.
 */

/** The attempt a load runs as; a batch commits only while it is the current one. */
export interface LoadFence {
  jobId: string;
  layerId: number;
  attempt: number;
}

/** A load attempt found a newer one running: it stops without writing. */
export class StaleLoadAttemptError extends Error {
  constructor(
    fence: LoadFence,
    /** The attempt that is current instead (none when the job's attempts are gone). */
    readonly current: number | undefined,
  ) {
    super(
      `Load attempt ${fence.attempt} of job ${fence.jobId} layer ${fence.layerId} was superseded by attempt ${current ?? 'none'}; it stops without writing.`,
    );
    this.name = 'StaleLoadAttemptError';
  }
}

/** Run first in a batch's transaction, with `$1` the job id and `$2` the layer id. */
export const CURRENT_ATTEMPT_SQL =
  'select attempt from publish_load_attempts where job_id = $1 and layer_id = $2 for update';

export const fenceParams = (fence: LoadFence): [string, number] => [fence.jobId, fence.layerId];

/** Throws unless the rows of CURRENT_ATTEMPT_SQL name the fence's attempt. */
export function checkAttempt(fence: LoadFence, rows: readonly { attempt: unknown }[]): void {
  const current = rows[0] === undefined ? undefined : Number(rows[0].attempt);
  if (current !== fence.attempt) throw new StaleLoadAttemptError(fence, current);
}
