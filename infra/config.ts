/**
 * Configuration: the only reader of process.env. Every variable is validated at start; a bad value is an
 * error that names the variable, so a misconfigured deployment fails before it serves anything.
 */
import { availableParallelism, homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

const basePath = z
  .string()
  .regex(/^(\/[A-Za-z0-9._~-]+)*\/?$/, 'must be empty or a path such as /portal')
  .transform((v) => v.replace(/\/$/, ''));

const schema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  BASE_PATH: basePath.default(''),
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})$/, 'must be false, true or the number of proxies in front (0 to 99)')
    .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v)))
    .default(0),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^\s:]+:\d+$/, 'must be host:port')
    .default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('geoportal'),
  TEMPORAL_UI_PORT: port.default(8233),
  MINIO_ENDPOINT: z.url().default('http://127.0.0.1:9000'),
  MINIO_ACCESS_KEY: z.string().min(3).default('geoportal'),
  MINIO_SECRET_KEY: z.string().min(8).default('geoportal-secret'),
  MINIO_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default('geoportal'),
  MINIO_CONSOLE_PORT: port.default(9001),
  PORTAL_ADMIN_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9@._-]{6,24}$/, '6 to 24 letters, digits or @ - . _')
    .default('portaladmin'),
  PORTAL_ADMIN_PASSWORD: z.string().min(8).optional(),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 ** 3),
  UPLOAD_ANONYMOUS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 ** 3),
  UPLOAD_ANONYMOUS_PER_CLIENT: z.coerce.number().int().min(0).default(2),
  STATEMENT_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  // PGlite cannot time a statement out: the planner's estimate bounds it instead (0: no bound).
  QUERY_MAX_COST: z.coerce.number().min(0).default(200_000),
  FORM_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 ** 2),
  ANONYMOUS_BODY_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 ** 2),
  FORM_MAX_FIELDS: z.coerce.number().int().positive().default(1000),
  ARCHIVE_MAX_ENTRIES: z.coerce.number().int().positive().default(100_000),
  ARCHIVE_MAX_RATIO: z.coerce.number().positive().default(100),
  ARCHIVE_MAX_INFLATED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 ** 3),
  PARSE_MAX_HEAP_MB: z.coerce.number().int().min(16).default(1024),
  PARSE_TIMEOUT_SECONDS: z.coerce.number().positive().default(120),
  // Large loads on PostgreSQL go into a table partitioned by object id, a part per this many rows, each part's
  // indexes built while the load fills the next (activities/publish/load-layer.ts).
  FEATURE_TABLE_PART_ROWS: z.coerce.number().int().min(1).default(250_000),
  // File geodatabases and service definitions are unpacked and converted in memory (wasm32 addresses at most 4 GiB).
  SQLITE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .max(2 * 1024 ** 3)
    .default(1024 ** 3),
  TOKEN_DEFAULT_MINUTES: z.coerce.number().int().positive().default(60),
  TOKEN_MAX_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20160 * 2),
  SIGN_IN_USER_FAILURES: z.coerce.number().int().min(1).default(5),
  SIGN_IN_ADDRESS_FAILURES: z.coerce.number().int().min(1).default(20),
  SIGN_IN_DELAY_SECONDS: z.coerce.number().positive().default(2),
  SIGN_IN_MAX_DELAY_SECONDS: z.coerce.number().positive().default(900),
  SIGN_IN_RESET_MINUTES: z.coerce.number().positive().default(60),
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).default(32),
  OUTBOUND_ALLOWED_HOSTS: z
    .string()
    .regex(
      /^\s*([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?(\s*,\s*([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?)*\s*$/,
      'must be a comma-separated list of host or host:port',
    )
    .optional(),
  OUTBOUND_CONNECT_SECONDS: z.coerce.number().positive().max(300).default(5),
  OUTBOUND_READ_SECONDS: z.coerce.number().positive().max(3600).default(30),
  OUTBOUND_MAX_MB: z.coerce.number().positive().default(16),
  WORKER_ACTIVITY_CONCURRENCY: z.coerce.number().int().positive().default(8),
  TILE_BUILD_MAX_TILES: z.coerce.number().int().positive().default(5_000_000),
  // One drawing thread per core (activities/tiles/render-threads.ts); 0 draws on the activity's thread.
  TILE_DRAW_THREADS: z.coerce.number().int().min(0).max(64).default(availableParallelism()),
  TILE_MEMORY_CACHE_MB: z.coerce.number().int().min(0).default(256),
  // How long a starting API process reads the tiles its predecessors held (infra/tile-memory-record.ts); 0: off.
  TILE_WARM_START_SECONDS: z.coerce.number().min(0).max(600).default(15),
  // One server per core: a Node process answers on one thread (see bench/README.md, tile serving).
  API_PROCESSES: z.coerce.number().int().min(1).max(256).default(availableParallelism()),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  GEOPORTAL_CACHE_DIR: z.string().min(1).optional(),
  EMBEDDED_SERVICES: bool.default(true),
});

export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function toConfig(env: z.infer<typeof schema>) {
  const dataDir = resolve(env.DATA_DIR);
  return {
    port: env.PORT,
    host: env.HOST,
    basePath: env.BASE_PATH,
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, ''),
    /** Proxies in front whose X-Forwarded-For/-Host/-Proto are believed (0: none). */
    trustedProxies: env.TRUST_PROXY,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    pgliteDir: join(dataDir, 'pglite'),
    temporal: {
      address: env.TEMPORAL_ADDRESS,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      uiPort: env.TEMPORAL_UI_PORT,
    },
    minio: {
      endpoint: new URL(env.MINIO_ENDPOINT),
      accessKey: env.MINIO_ACCESS_KEY,
      secretKey: env.MINIO_SECRET_KEY,
      bucket: env.MINIO_BUCKET,
      consolePort: env.MINIO_CONSOLE_PORT,
    },
    admin: { username: env.PORTAL_ADMIN_USERNAME, password: env.PORTAL_ADMIN_PASSWORD },
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    /** Files spooled by requests that have not shown a token yet (ArcGIS clients send it after the file). */
    anonymousSpools: {
      maxBytes: env.UPLOAD_ANONYMOUS_MAX_BYTES,
      maxPerAddress: env.UPLOAD_ANONYMOUS_PER_CLIENT,
    },
    statementTimeoutMs: Math.round(env.STATEMENT_TIMEOUT_SECONDS * 1000),
    /** Planner cost above which the embedded PGlite refuses a feature query (0: none). */
    queryMaxCost: env.QUERY_MAX_COST,
    /** Request bodies: form data of signed-in callers, of anyone else, and the parameter count. */
    bodyLimits: {
      maxFormBytes: env.FORM_MAX_BYTES,
      maxAnonymousBytes: Math.min(env.ANONYMOUS_BODY_MAX_BYTES, env.FORM_MAX_BYTES),
      maxFields: env.FORM_MAX_FIELDS,
    },
    /** Whole-file parsing (zipped shapefiles, workbooks) and archive reading. */
    parseLimits: {
      archive: {
        maxEntries: env.ARCHIVE_MAX_ENTRIES,
        maxRatio: env.ARCHIVE_MAX_RATIO,
        maxBytes: env.ARCHIVE_MAX_INFLATED_BYTES,
      },
      maxHeapMb: env.PARSE_MAX_HEAP_MB,
      timeoutMs: env.PARSE_TIMEOUT_SECONDS * 1000,
    },
    sqliteMaxBytes: env.SQLITE_MAX_BYTES,
    /** Rows a part of a large feature table holds on PostgreSQL. */
    featureTablePartRows: env.FEATURE_TABLE_PART_ROWS,
    tokens: { defaultMinutes: env.TOKEN_DEFAULT_MINUTES, maxMinutes: env.TOKEN_MAX_MINUTES },
    signIn: {
      failuresPerUser: env.SIGN_IN_USER_FAILURES,
      failuresPerAddress: env.SIGN_IN_ADDRESS_FAILURES,
      delayMs: env.SIGN_IN_DELAY_SECONDS * 1000,
      maxDelayMs: env.SIGN_IN_MAX_DELAY_SECONDS * 1000,
      resetMs: env.SIGN_IN_RESET_MINUTES * 60_000,
    },
    passwordHashing: { concurrency: env.PASSWORD_HASH_CONCURRENCY, queue: env.PASSWORD_HASH_QUEUE },
    outbound: {
      allowedHosts: (env.OUTBOUND_ALLOWED_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== ''),
      connectTimeoutMs: env.OUTBOUND_CONNECT_SECONDS * 1000,
      readTimeoutMs: env.OUTBOUND_READ_SECONDS * 1000,
      maxResponseBytes: Math.round(env.OUTBOUND_MAX_MB * 1024 ** 2),
    },
    workerActivityConcurrency: env.WORKER_ACTIVITY_CONCURRENCY,
    tileBuildMaxTiles: env.TILE_BUILD_MAX_TILES,
    tileDrawThreads: env.TILE_DRAW_THREADS,
    tileMemoryCacheBytes: env.TILE_MEMORY_CACHE_MB * 1024 ** 2,
    tileWarmStartMs: env.TILE_WARM_START_SECONDS * 1000,
    apiProcesses: env.API_PROCESSES,
    logLevel: env.LOG_LEVEL,
    cacheDir: env.GEOPORTAL_CACHE_DIR ?? join(homedir(), '.cache', 'geoportal'),
    embeddedServices: env.EMBEDDED_SERVICES,
  };
}

/** Reads and validates configuration; empty strings count as unset so `VAR=` falls back to the default. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.keys(schema.shape);
  const input: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  return toConfig(parsed.data);
}

/** The documented table of variables, used by the README check and `--help` output. */
export const configVariables = Object.keys(schema.shape);
