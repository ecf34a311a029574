/**
 * The database client factory: PostgreSQL through postgres.js when a URL is configured, otherwise an
 * embedded PGlite database in the data directory. Both speak the same SQL, so the rest of the code only
 * sees `Database`.
 */
import { mkdirSync } from 'node:fs';
import { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
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
  const client = postgres(url, {
    max: poolSize,
    onnotice: () => {},
    ...({ socket: noDelaySockets() } as object),
    // Sent as startup parameters, so every connection of the pool has them from its first statement.
    // The connection check ends a statement (an index build, a COPY) whose process was killed within
    // seconds, instead of letting it run on and hold its locks against the retry.
    // extra_float_digits 1 (PostgreSQL's own default) makes every double come back as the shortest text
    // that reads as the same double, whatever a database or role sets: points read from their box must
    // be the doubles their shapes hold.
    connection: {
      client_connection_check_interval: 2000,
      extra_float_digits: 1,
      ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
    },
  });
  const db = drizzlePostgres(preparing(client), { schema }) as unknown as Database;
  const rows = async <T>(query: SQL) => (await db.execute(query)) as unknown as T[];
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
  };
}

/**
 * postgres.js's sockets, connected as it would connect them but with Nagle's algorithm off (as
 * node-postgres has them). A COPY writes its data and then CopyDone separately; with Nagle on, the
 * second small write waits for the server's delayed ACK of the first, 40 ms on Linux: most of the
 * load of a small publish. postgres.js writes its startup message once the socket is connected.
 */
function noDelaySockets() {
  let next = 0;
  return (options: { host: string[]; port: number[]; path?: string | false }) => {
    const socket = new Socket();
    socket.setNoDelay(true);
    if (options.path) return socket.connect(options.path);
    const i = next++ % options.host.length;
    // postgres.js reads these back for TLS (the server name it verifies), as on its own sockets.
    Object.assign(socket, { host: options.host[i], port: options.port[i] });
    return socket.connect(options.port[i] ?? 5432, options.host[i]);
  };
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

async function openPglite(dir: string, statementTimeoutMs?: number): Promise<DatabaseHandle> {
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
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
        return kind === 'postgres' ? (result as R[]) : (result as { rows: R[] }).rows;
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
