/**
 * The database client factory: PostgreSQL through postgres.js when a URL is configured, otherwise an
 * embedded PGlite database in the data directory. Both speak the same SQL, so the rest of the code only
 * sees `Database`.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { postgresClient } from './postgres-client.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** The driver's own client under `db` (postgres.js, PGlite, or a transaction of either): for COPY. */
  driver: postgres.Sql | PGlite | PgliteTransaction;
  /** A handle from `transaction`: its statements run in that transaction, and COPY joins it. */
  inTransaction: boolean;
  /** Runs a raw statement and returns its rows, whichever driver is underneath. */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  /**
   * Runs `body` in one transaction on one connection, with a handle whose every statement (COPY
   * included) runs in it: one commit for all. Called on a transaction's handle, it joins that one.
   */
  transaction<T>(body: (tx: DatabaseHandle) => Promise<T>): Promise<T>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * How another thread opens a connection of its own to the same PostgreSQL database, with the same
   * session settings. PGlite lives in this thread, and a transaction's handle is its one connection:
   * neither has this.
   */
  reopen?: DatabaseOptions;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  pgliteDir?: string;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
  /** statement_timeout of every session (the API's); none when absent. */
  statementTimeoutMs?: number;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// Any constant works; every process that migrates the same database must use the same one.
const MIGRATION_LOCK_KEY = 727_462_001;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.statementTimeoutMs);
  if (!options.pgliteDir) throw new Error('openDatabase needs a databaseUrl or a pgliteDir');
  return openPglite(options.pgliteDir, options.statementTimeoutMs);
}

function openPostgres(url: string, poolSize: number, statementTimeoutMs?: number): DatabaseHandle {
  const client = postgresClient(url, poolSize, statementTimeoutMs);
  const db = drizzlePostgres(preparing(client), { schema }) as unknown as Database;
  const rows = async <T>(query: SQL) => detachedRows((await db.execute(query)) as unknown as T[]);
  return {
    db,
    kind: 'postgres',
    driver: client,
    inTransaction: false,
    rows,
    transaction: (body) => inTransaction(db, 'postgres', body),
    async migrate() {
      // A single connection holds the advisory lock, so several workers starting together migrate once.
      const one = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await one`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
        await migratePostgres(drizzlePostgres(one), { migrationsFolder });
        await one`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
      } finally {
        await one.end();
      }
    },
    close: () => client.end({ timeout: 5 }),
    reopen: { databaseUrl: url, poolSize: 1, ...(statementTimeoutMs ? { statementTimeoutMs } : {}) },
  };
}

/**
 * A postgres.js result's rows in an array of their own, the result left empty. Left whole, a result's rows
 * live on through the young generation's collections after the caller has let go of them: a query of 1,000
 * rows answered one at a time kept 1.6-2 MB alive through every scavenge, each then copying it once and
 * promoting it the next time (10-15 ms pauses where 1 ms is usual; bench/README.md, queries, session 42).
 * Emptying the result ends that; the copy (one array of pointers) is young and dies with its caller's use.
 */
export function detachedRows<T>(result: T[]): T[] {
  const rows = Array.prototype.slice.call(result) as T[];
  result.length = 0;
  return rows;
}

/**
 * The client as drizzle sees it, with every statement that has parameters run as a named prepared
 * statement. drizzle asks postgres.js for unnamed statements, and postgres.js sends an unnamed statement
 * with parameters in two round trips (Parse and Describe, wait for the parameter types, then Bind and
 * Execute); a prepared one is described once per connection and then costs one round trip, and the server
 * plans it from its cache. Statements without parameters (DDL, COPY) stay unnamed: they already take one
 * round trip, and their texts (table names) are unbounded. The statements with parameters are the code's
 * shapes and the query compiler's (values are bound), so a connection's prepared set stays bounded, and
 * postgres.js replaces each connection after 30–60 minutes (`max_lifetime`) anyway. A plan invalidated by
 * a table swapped under it is re-prepared by postgres.js (it retries on RevalidateCachedQuery).
 */
function preparing(client: postgres.Sql): postgres.Sql {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'unsafe') {
        return (query: string, args?: unknown[], options?: Record<string, unknown>) =>
          target.unsafe(query, args as postgres.ParameterOrJSON<never>[], {
            ...options,
            prepare: (args?.length ?? 0) > 0,
          });
      }
      if (key === 'begin' || key === 'savepoint') {
        // A transaction's statements run on the client it is given: that one prepares too.
        return (...args: unknown[]) => {
          const last = args.length - 1;
          const body = args[last] as (tx: postgres.Sql) => unknown;
          args[last] = (tx: postgres.Sql) => body(preparing(tx));
          return (Reflect.get(target, key) as (...a: unknown[]) => unknown)(...args);
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

/**
 * bytea values as PGlite reads them, by Node's hex decoder: PGlite's own parser reads the hex text two
 * characters at a time in JavaScript, and a tile build's points (layer-features.ts pointsIn, 2.7 MB for
 * 171,075 cities) held the embedded product's event loop for 400-800 ms a read. The same bytes, in an
 * array of their own.
 */
export function pgliteBytea(text: string): Uint8Array {
  if (!text.startsWith('\\x')) throw new Error('bytea is read in hex output');
  const bytes = Buffer.from(text.slice(2), 'hex');
  if (bytes.length * 2 !== text.length - 2) throw new Error('bytea text is not hex');
  return new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

const BYTEA = 17;

async function openPglite(dir: string, statementTimeoutMs?: number): Promise<DatabaseHandle> {
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, { parsers: { [BYTEA]: pgliteBytea } });
  if (statementTimeoutMs) await client.exec(`SET statement_timeout = ${Math.floor(statementTimeoutMs)}`);
  await client.exec('SET extra_float_digits = 1');
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    driver: client,
    inTransaction: false,
    rows: async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows,
    transaction: (body) => inTransaction(db, 'pglite', body),
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    close: () => client.close(),
  };
}

/**
 * drizzle's transaction, as a handle. The driver's transaction client is the one drizzle's transaction
 * session holds (`session.client`: on postgres.js the TransactionSql, already preparing; on PGlite its
 * Transaction), so COPY runs on the transaction's connection too.
 */
function inTransaction<T>(
  db: Database,
  kind: DatabaseHandle['kind'],
  body: (tx: DatabaseHandle) => Promise<T>,
): Promise<T> {
  return db.transaction(async (txDb) => {
    const driver = (txDb as unknown as { session: { client: DatabaseHandle['driver'] } }).session.client;
    const tx: DatabaseHandle = {
      db: txDb as unknown as Database,
      kind,
      driver,
      inTransaction: true,
      rows: async <R>(query: SQL) => {
        const result = (await txDb.execute(query)) as unknown;
        return kind === 'postgres' ? detachedRows(result as R[]) : (result as { rows: R[] }).rows;
      },
      transaction: (inner) => inner(tx),
      migrate: () => Promise.reject(new Error('migrate runs outside a transaction')),
      close: () => Promise.reject(new Error('a transaction handle is not closed')),
    };
    return body(tx);
  });
}

/** A cheap round trip used by readiness checks. */
export async function ping(handle: DatabaseHandle): Promise<boolean> {
  const rows = await handle.rows<{ ok: number }>(sql`select 1 as ok`);
  return rows[0]?.ok === 1;
}
