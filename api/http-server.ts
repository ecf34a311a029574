/**
 * The HTTP server every entry starts: the app behind @hono/node-server's request listener, with the lean
 * tile path in front of it (tile GETs are answered on Node's own request and response objects), and in
 * front of that the socket front (plain tile GETs answered on the connection, before Node parses them).
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app.js';
import type { AppDeps } from './env.js';
import { closeIdleAfterReads } from './idle-close.js';
import { sweepOrphanObjects } from './object-sweep.js';
import { ANALYZE_SLACK_MS } from './publish/analyze-route.js';
import { createTileFastPath } from './tile-fast-path.js';
import { attachSocketFront } from './tile-socket-front.js';
import { sweepStaleUploads } from './upload-sweep.js';

export interface ServeOptions {
  port: number;
  hostname: string;
}

/** Creates the server and starts listening; wait for its `listening` event to know the port is bound. */
export function serveApp(deps: AppDeps, { port, hostname }: ServeOptions): Server {
  const tiles = createTileFastPath(deps);
  const app = createApp(deps);
  const listener = getRequestListener(app.fetch, { hostname });
  const server = createServer(
    tiles.nodeListener(deps.config.basePath, (req, res) => {
      void listener(req, res);
    }),
  );
  // Plain tile GETs are read and answered on the connection itself; the rest reaches the server above.
  const front = attachSocketFront(server, tiles, deps.config.basePath);
  // A request sent on a kept-alive connection just before its idle time ran out is read, not reset.
  closeIdleAfterReads(server);
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    front.closeIdle();
    closeIdle();
  };
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    front.closeAll();
    closeAll();
  };
  // Upload files a killed process left behind (the app's own requests remove theirs).
  const stopSweep = sweepStaleUploads(join(deps.config.dataDir, 'tmp'), deps.log);
  server.on('close', stopSweep);
  // Objects a killed process left in the bucket (a staged upload before its job's row, an analyze call's).
  const analyzeLongest = deps.config.parseLimits.timeoutMs + ANALYZE_SLACK_MS;
  const stopObjectSweep = sweepOrphanObjects(deps.store, deps.database.db, deps.log, 2 * analyzeLongest);
  server.on('close', stopObjectSweep);
  server.listen(port, hostname);
  return server;
}
