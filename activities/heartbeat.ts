/**
 * Heartbeats that go on while an activity waits: a dead worker is noticed within the heartbeat
 * timeout (seconds) instead of the start-to-close timeout (minutes or hours), even while one long SQL
 * statement, an upload or a geocoding request runs. The timer repeats the activity's last resume
 * point (`recordProgress`), so a beat from the timer never loses where a retry should resume.
 */
import { Context } from '@temporalio/activity';

/** The timer's period when the heartbeat timeout allows it; at most a third of that timeout. */
const BEAT_EVERY_MS = 2000;

const lastDetails = new WeakMap<Context, { details: unknown }>();

/** Heartbeats `details` as the current activity's resume point, repeated by the timer from now on. */
export function recordProgress(details: unknown): void {
  const ctx = Context.current();
  // A local activity has no heartbeats (its workflow task stands for it) and nothing to resume.
  if (ctx.info.isLocal) return;
  lastDetails.set(ctx, { details });
  ctx.heartbeat(details);
}

/** The details the timer repeats: the last recorded ones, else those the previous attempt left. */
function detailsOf(ctx: Context): unknown {
  const last = lastDetails.get(ctx);
  return last ? last.details : ctx.info.heartbeatDetails;
}

/**
 * Runs `run` with a timer heartbeating every `BEAT_EVERY_MS` (or a third of the heartbeat timeout,
 * whichever is shorter). An activity without a heartbeat timeout must not heartbeat, so it runs as is.
 */
export async function withTimerHeartbeats<T>(run: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const timeout = ctx.info.heartbeatTimeoutMs;
  if (!timeout || ctx.info.isLocal) return run();
  const beat = () => ctx.heartbeat(detailsOf(ctx));
  const timer = setInterval(beat, Math.max(100, Math.min(BEAT_EVERY_MS, Math.floor(timeout / 3))));
  // A timer must never keep a worker that is shutting down alive.
  timer.unref();
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}

type AsyncFunctions = Record<string, (...args: never[]) => Promise<unknown>>;

/** Every activity of a group, each run under `withTimerHeartbeats`. */
export function heartbeatingActivities<A extends AsyncFunctions>(activities: A): A {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = (...args: never[]) => withTimerHeartbeats(() => fn(...args));
  }
  return wrapped as A;
}
