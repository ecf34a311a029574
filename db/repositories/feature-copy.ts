/**
 * A batch of feature rows copied into its table on a postgres.js client, behind the load attempt's
 * fence. Kept apart from feature-tables.ts (and drizzle) so that a load thread copies on a connection
 * of its own with only postgres.js loaded.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type postgres from 'postgres';
import { internalError } from '../../lib/errors.js';
import { CURRENT_ATTEMPT_SQL, checkAttempt, fenceParams, type LoadFence } from './load-fence.js';

const SAFE_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** A checked table or column name, quoted; anything else is refused. */
export function checkedIdentifier(identifier: string): string {
  if (!SAFE_IDENTIFIER.test(identifier))
    throw internalError('Unable to complete operation.', ['Invalid identifier.']);
  return `"${identifier}"`;
}

/** A batch of COPY data for a table: text (tab-separated) or binary (header and trailer included). */
export interface CopyBatch {
  table: string;
  columns: readonly string[];
  data: string | Uint8Array;
  /** The load attempt the batch belongs to: it commits only while that attempt is the current one. */
  fence?: LoadFence;
}

/** A batch without rows: no text, or a binary batch that is only its 19-byte header and 2-byte trailer. */
export const isEmptyCopy = (data: string | Uint8Array): boolean =>
  typeof data === 'string' ? data === '' : data.length <= 21;

/** The COPY statement of a batch, from `source` (`stdin`, or PGlite's `'/dev/blob'`). */
export function copyStatement(batch: CopyBatch, source: string): string {
  const columns = batch.columns.map(checkedIdentifier).join(', ');
  const format = typeof batch.data === 'string' ? '' : ' with (format binary)';
  return `copy ${checkedIdentifier(batch.table)} (${columns}) from ${source}${format}`;
}

/**
 * copyRows on a postgres.js client (the pool's, or a load thread's own connection). A batch without
 * rows still passes the fence. `inTransaction`: the client is a transaction's, and the batch commits
 * (or not) with everything else it does.
 */
export async function copyOnPostgres(
  client: postgres.Sql,
  inTransaction: boolean,
  batch: CopyBatch,
): Promise<void> {
  const { data, fence } = batch;
  const copy = async (tx: postgres.Sql | postgres.TransactionSql) => {
    if (isEmptyCopy(data)) return;
    const writable = await tx.unsafe(copyStatement(batch, 'stdin')).writable();
    await pipeline(Readable.from([typeof data === 'string' ? Buffer.from(data, 'utf8') : data]), writable);
  };
  if (!fence) return copy(client);
  const fenced = async (tx: postgres.Sql | postgres.TransactionSql) => {
    checkAttempt(fence, await tx.unsafe(CURRENT_ATTEMPT_SQL, fenceParams(fence)));
    await copy(tx);
  };
  if (inTransaction) return fenced(client);
  await client.begin(fenced);
}
