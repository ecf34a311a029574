/** The API entry for production: serves HTTP; publish jobs reach the workers through Temporal. */
import { serve } from '@hono/node-server';
import { ConfigError, loadConfig } from '../infra/config.js';
import { createLogger } from '../infra/logger.js';
import { appDeps, openRuntime } from '../infra/runtime.js';
import { createApp } from './app.js';

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError([
      'DATABASE_URL: required when the API runs as its own process (PGlite is in-process only)',
    ]);
  }
  const log = createLogger(config.logLevel, { component: 'api' });
  const runtime = await openRuntime(config, log);
  if (runtime.identity.generatedAdminPassword) {
    console.log(
      `First administrator ${config.admin.username} created with password ${runtime.identity.generatedAdminPassword}`,
    );
  }
  const server = serve({
    fetch: createApp(appDeps(runtime)).fetch,
    port: config.port,
    hostname: config.host,
  });
  log.info('api listening', { host: config.host, port: config.port, basePath: config.basePath });
  const stop = () => server.close(() => runtime.close().then(() => process.exit(0)));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
});
