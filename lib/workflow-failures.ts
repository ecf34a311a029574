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
