/**
 * The postgres.js client every connection of the product is made with (db/client.ts's pool, and a
 * load thread's own connection), so all have the same session settings. Kept apart from
 * db/client.ts so that a thread can open one without loading drizzle's schema or PGlite.
 */
import { Socket } from 'node:net';
import postgres from 'postgres';

export function postgresClient(url: string, max: number, statementTimeoutMs?: number): postgres.Sql {
  return postgres(url, {
    max,
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
