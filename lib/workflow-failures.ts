/**
 * The type of the non-retryable failure an activity raises for a client's error (bad data, bad request):
 * workflows recognise it to fail the job at once with the client's message, and the status route shows it.
 */
export const BAD_INPUT = 'BadInput';
