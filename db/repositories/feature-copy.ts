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

/**
 * copyRows on a postgres.js client of one's own (a load thread's connection). A batch without rows
 * still passes the fence. `inTransaction`: the client is a transaction's, and the batch commits (or
 * not) with everything else it does.
 */
export async function copyOnPostgres(
  client: postgres.Sql,
  inTransaction: boolean,
  table: string,
  columnNames: readonly string[],
  data: string | Uint8Array,
  fence?: LoadFence,
): Promise<void> {
  const binary = typeof data !== 'string';
  const empty = binary ? data.length <= 21 : data === '';
  const columns = columnNames.map(checkedIdentifier).join(', ');
  const format = binary ? ' with (format binary)' : '';
  const copy = async (tx: postgres.Sql | postgres.TransactionSql) => {
    if (empty) return;
    const writable = await tx
      .unsafe(`copy ${checkedIdentifier(table)} (${columns}) from stdin${format}`)
      .writable();
    await pipeline(Readable.from([binary ? data : Buffer.from(data, 'utf8')]), writable);
  };
  if (!fence) return copy(client);
  const fenced = async (tx: postgres.Sql | postgres.TransactionSql) => {
    checkAttempt(fence, await tx.unsafe(CURRENT_ATTEMPT_SQL, fenceParams(fence)));
    await copy(tx);
  };
  if (inTransaction) return fenced(client);
  await client.begin(fenced);
}
