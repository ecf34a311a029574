/**
 * The HTTP server every entry starts: the app behind @hono/node-server's request listener, with the lean
 * tile path in front of it (tile GETs are answered on Node's own request and response objects).
 */
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app.js';
import type { AppDeps } from './env.js';
import { createTileFastPath } from './tile-fast-path.js';

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
  server.listen(port, hostname);
  return server;
}
