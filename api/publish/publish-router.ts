/** The publishing operations under sharing/rest: analyze, publish, the job status and its error records. */
import { Hono } from 'hono';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { analyze } from './analyze-route.js';
import { errorRecords } from './error-records-route.js';
import { publish } from './publish-route.js';
import { itemStatus } from './status-route.js';

const methods = ['GET', 'POST'];

export function createPublishRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.on(methods, '/content/features/analyze', async (c) => sendJson(c, await analyze(c)));
  router.on(methods, '/content/users/:user/publish', async (c) => sendJson(c, await publish(c)));
  router.on(methods, '/content/users/:user/:folder/publish', async (c) => sendJson(c, await publish(c)));
  router.on(methods, '/content/users/:user/items/:itemId/status', async (c) =>
    sendJson(c, await itemStatus(c)),
  );
  router.on(methods, '/content/users/:user/:folder/items/:itemId/status', async (c) =>
    sendJson(c, await itemStatus(c)),
  );
  router.on(methods, '/content/users/:user/items/:itemId/errorRecords', async (c) =>
    sendJson(c, await errorRecords(c)),
  );
  return router;
}
