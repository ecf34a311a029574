/**
 * The database client factory: PostgreSQL through postgres.js when a URL is configured, otherwise an
 * embedded PGlite database in the data directory. Both speak the same SQL, so the rest of the code only
 * sees `Database`.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
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
  /** Runs a raw statement and returns its rows, whichever driver is underneath. */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
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
    // Sent as startup parameters, so every connection of the pool has them from its first statement.
    // The connection check ends a statement (an index build, a COPY) whose process was killed within
    // seconds, instead of letting it run on and hold its locks against the retry.
    connection: {
      client_connection_check_interval: 2000,
      ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
    },
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    rows: async <T>(query: SQL) => (await db.execute(query)) as unknown as T[],
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

async function openPglite(dir: string, statementTimeoutMs?: number): Promise<DatabaseHandle> {
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  if (statementTimeoutMs) await client.exec(`SET statement_timeout = ${Math.floor(statementTimeoutMs)}`);
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    rows: async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows,
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    close: () => client.close(),
  };
}

/** A cheap round trip used by readiness checks. */
export async function ping(handle: DatabaseHandle): Promise<boolean> {
  const rows = await handle.rows<{ ok: number }>(sql`select 1 as ok`);
  return rows[0]?.ok === 1;
}
