/**
 * The retry policies of every workflow's activities, in one place so they cannot drift apart.
 * Activities are idempotent, so a retry after a crash is always safe; bad input fails at once
 * (a non-retryable `BAD_INPUT` failure, see activities/publish/activity-errors.ts).
 */
import type { RetryPolicy } from '@temporalio/workflow';

const backoff = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
} as const;

/** Short steps (plan, finish, mark, switch): eight attempts over about two and a half minutes. */
export const STEP_RETRY: RetryPolicy = { ...backoff, maximumAttempts: 8 };

/** Long heartbeating steps that resume where they stopped (load a layer, draw a bundle). */
export const LONG_STEP_RETRY: RetryPolicy = { ...backoff, maximumAttempts: 20 };

/** The stack self-check: quick, since the launcher waits for it. */
export const SELF_CHECK_RETRY: RetryPolicy = { initialInterval: '500 ms', maximumAttempts: 5 };

/** analyze: a caller waits for the answer, so one quick retry (a worker lost mid-read), no more. */
export const ANALYZE_RETRY: RetryPolicy = { initialInterval: '500 ms', maximumAttempts: 2 };
