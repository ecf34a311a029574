/**
 * The retry policies and timeouts of every workflow's activities, in one place so they cannot drift
 * apart. Activities are idempotent, so a retry after a crash is always safe; bad input fails at once
 * (a non-retryable `BAD_INPUT` failure, see activities/publish/activity-errors.ts).
 *
 * Every activity heartbeats from a timer while it runs (activities/heartbeat.ts), so a worker that
 * dies is noticed within `HEARTBEAT_TIMEOUT` whatever the step was doing, and the retry starts on
 * the next worker a second later: recovery takes seconds, never a start-to-close timeout.
 */
import type { ActivityOptions, LocalActivityOptions, RetryPolicy } from '@temporalio/workflow';

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

/**
 * How long a running activity may go without a heartbeat. The timer beats every 2 s; the margin
 * covers a JavaScript stall (a long statement of the embedded PGlite runs on the worker's thread).
 */
export const HEARTBEAT_TIMEOUT = '20 seconds';

/** Bookkeeping steps (mark ready, fail, switch a generation): a few statements each. */
export const SHORT_STEP: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: STEP_RETRY,
};

/** Steps whose length grows with the data (plan a big file, build indexes, prepare a cache). */
export const DATA_STEP: ActivityOptions = {
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: STEP_RETRY,
};

/** Long steps that resume from their heartbeat details (load a layer, draw a bundle). */
export const LONG_STEP: ActivityOptions = {
  startToCloseTimeout: '4 hours',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: LONG_STEP_RETRY,
};

/**
 * A small job done in one go as a local activity: it runs on the worker that holds the workflow task,
 * without a trip through the activity task queue. A local activity cannot heartbeat; if its worker
 * dies, the workflow task times out (10 s) and the next worker replays and runs it again.
 */
export const LOCAL_STEP: LocalActivityOptions = {
  // Long enough for a small file geocoded row by row by a remote service.
  startToCloseTimeout: '10 minutes',
  retry: STEP_RETRY,
};

/** analyze: a caller waits for the answer, so one quick retry (a worker lost mid-read), no more. */
export const ANALYZE_RETRY: RetryPolicy = { initialInterval: '500 ms', maximumAttempts: 2 };
