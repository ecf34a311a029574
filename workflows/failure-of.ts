/**
 * The `{code, message}` a failed job reports: an activity's own words for bad input (a BAD_INPUT
 * failure's code, message and details; see activities/publish/activity-errors.ts), else a 500 with
 * the failure's message. Shared by the publish and tile workflows.
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

export function failureOf(err: unknown, fallback = 'The job failed.'): { code: number; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const d = cause.details?.[0] as { code?: number; message?: string; details?: string[] } | undefined;
    if (d && typeof d.code === 'number') {
      const extra = d.details?.length ? ` ${d.details.join(' ')}` : '';
      return { code: d.code, message: `${d.message ?? cause.message}${extra}`.trim() };
    }
    return { code: 500, message: cause.message };
  }
  return { code: 500, message: cause instanceof Error ? cause.message : fallback };
}
