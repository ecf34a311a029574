/**
 * The type of the non-retryable failure an activity raises for a client's error (bad data, bad request):
 * workflows recognise it to fail the job at once with the client's message, and the status route shows it.
 */
export const BAD_INPUT = 'BadInput';

/** Why a publish fails when no row could be published: the first reasons rows were rejected. */
export function noRowsPublishedMessage(reasons: readonly string[]): string {
  const why = reasons.length ? ` ${reasons.slice(0, 3).join(' ')}` : ' The file has no data rows.';
  return `No row of the file could be published.${why}`;
}

/** The client's error a `BAD_INPUT` failure carries (see activities/publish/activity-errors.ts). */
export interface BadInputBody {
  code: number;
  message: string;
  details: string[];
  messageCode?: string;
}

interface FailureLink {
  name?: unknown;
  type?: unknown;
  details?: unknown;
  cause?: unknown;
}

function* causes(e: unknown): Generator<FailureLink> {
  for (let cause = e, depth = 0; cause && typeof cause === 'object' && depth < 8; depth++) {
    yield cause as FailureLink;
    cause = (cause as FailureLink).cause;
  }
}

/**
 * The `{code, message, details}` of the first `BAD_INPUT` failure in a failure's cause chain (a
 * workflow's failure wraps the activity's, which wraps the application failure), or undefined.
 */
export function badInputOf(e: unknown): BadInputBody | undefined {
  for (const link of causes(e)) {
    if (link.type !== BAD_INPUT || !Array.isArray(link.details)) continue;
    const d = link.details[0] as Partial<BadInputBody> | undefined;
    if (d && typeof d.code === 'number' && typeof d.message === 'string')
      return {
        code: d.code,
        message: d.message,
        details: Array.isArray(d.details) ? d.details.map(String) : [],
        ...(typeof d.messageCode === 'string' ? { messageCode: d.messageCode } : {}),
      };
  }
  return undefined;
}

/** Whether a workflow or activity timed out somewhere in the failure's cause chain. */
export function isTimeoutFailure(e: unknown): boolean {
  for (const link of causes(e)) if (link.name === 'TimeoutFailure') return true;
  return false;
}
