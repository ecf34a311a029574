/**
 * Activities speak the product's error model; Temporal needs to know which failures are final.
 * A GeoError with a 4xx code is the data's or the request's fault: retrying cannot help, so it
 * becomes a non-retryable ApplicationFailure carrying `{code, message, details}` for the status.
 */
import { ApplicationFailure } from '@temporalio/common';
import { isGeoError } from '../../lib/errors.js';
import { BAD_INPUT } from '../../lib/workflow-failures.js';

export interface FailureDetails {
  code: number;
  message: string;
  details: string[];
  messageCode?: string;
}

export function asTemporalFailure(e: unknown): unknown {
  if (isGeoError(e) && e.code >= 400 && e.code < 500) {
    const details: FailureDetails = {
      code: e.code,
      message: e.message,
      details: e.details,
      ...(e.messageCode ? { messageCode: e.messageCode } : {}),
    };
    return ApplicationFailure.create({
      message: e.message,
      type: BAD_INPUT,
      nonRetryable: true,
      details: [details],
    });
  }
  return e;
}

/** Wraps each activity so bad input fails the job at once instead of being retried. */
export function withFailureMapping<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: T,
): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    out[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        throw asTemporalFailure(e);
      }
    };
  }
  return out as T;
}
