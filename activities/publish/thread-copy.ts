/**
 * A loading thread that copies its batches into the feature table itself, on a PostgreSQL connection
 * of its own (the CSV load thread, the SQLite encoder threads): what it is given, the connection, and
 * how its failures cross back to the activity's thread.
 */
import type { DatabaseOptions } from '../../db/client.js';
import { postgresClient } from '../../db/postgres-client.js';
import { copyOnPostgres } from '../../db/repositories/feature-copy.js';
import { type LoadFence, StaleLoadAttemptError } from '../../db/repositories/load-fence.js';
import { type ErrorBody, GeoError, internalError, isGeoError } from '../../lib/errors.js';

/** What a thread needs to copy its batches itself. */
export interface ThreadCopy {
  database: DatabaseOptions & { databaseUrl: string };
  table: string;
  columns: string[];
  fence: LoadFence;
}

/** A thread's connection: each batch in its own transaction behind the fence (an empty one still passes it). */
export function threadCopier(copy: ThreadCopy) {
  const { databaseUrl, statementTimeoutMs } = copy.database;
  const client = postgresClient(databaseUrl, 1, statementTimeoutMs);
  return {
    copy: (data: Uint8Array | '') =>
      copyOnPostgres(client, false, { table: copy.table, columns: copy.columns, data, fence: copy.fence }),
    close: () => client.end({ timeout: 5 }),
  };
}

/** A thread's failure as it is posted: the product's error, or a superseded attempt, survive the crossing. */
export interface ThreadFailure {
  message: string;
  error?: ErrorBody;
  stale?: { current: number | undefined };
}

export function threadFailure(e: unknown): ThreadFailure {
  return {
    message: e instanceof Error ? e.message : String(e),
    ...(isGeoError(e) ? { error: e.toBody() } : {}),
    ...(e instanceof StaleLoadAttemptError ? { stale: { current: e.current } } : {}),
  };
}

/** The error a posted failure stands for; anything else is an internal error saying `what` failed. */
export function failureError(failure: ThreadFailure, fence: LoadFence | undefined, what: string): Error {
  if (failure.stale && fence) return new StaleLoadAttemptError(fence, failure.stale.current);
  if (failure.error) return new GeoError(failure.error);
  return internalError('Unable to complete operation.', [`${what} failed: ${failure.message}`]);
}
