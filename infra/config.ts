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
  // sql.js reads a GeoPackage or SQLite database whole, in memory (wasm32 addresses at most 4 GiB).
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
  WORKER_ACTIVITY_CONCURRENCY: z.coerce.number().int().positive().default(8),
  TILE_MEMORY_CACHE_MB: z.coerce.number().int().min(0).default(256),
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
    sqliteMaxBytes: env.SQLITE_MAX_BYTES,
    tokens: { defaultMinutes: env.TOKEN_DEFAULT_MINUTES, maxMinutes: env.TOKEN_MAX_MINUTES },
    workerActivityConcurrency: env.WORKER_ACTIVITY_CONCURRENCY,
    tileMemoryCacheBytes: env.TILE_MEMORY_CACHE_MB * 1024 ** 2,
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
