/**
 * Closing kept-alive connections whose idle time is up without losing a request already sent on them.
 *
 * A connection's timeout is a timer, and after the event loop has been held (a long synchronous step:
 * a large statement on the embedded database, a parse) timers run before sockets are read. A client that
 * sent its next request on a kept-alive connection during the stall, within the idle time it was told,
 * would have the connection destroyed with that request unread, and get ECONNRESET (seen in a test run
 * and in a trial of the embedded product under a heavy tile build).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Margin between the idle time a response advertises (`Keep-Alive: timeout=`, the server's
 * keepAliveTimeout) and the time a connection is actually closed, as Node's own server keeps (1 s).
 */
export const KEEP_ALIVE_CLOSE_MARGIN_MS = 1000;

/**
 * Destroys `socket` once the reads waiting for the event loop have run (on the loop's check phase, after
 * its poll phase), unless it read something meanwhile or `stillIdle` says it is in use.
 */
export function closeWhenIdle(socket: Socket, stillIdle: () => boolean = () => true): void {
  const read = socket.bytesRead;
  setImmediate(() => {
    if (!socket.destroyed && socket.bytesRead === read && stillIdle()) socket.destroy();
  });
}

/**
 * Makes Node's HTTP server close a timed-out connection through `closeWhenIdle`: with a listener for its
 * `timeout` event, the server leaves the socket to it instead of destroying it at once.
 */
export function closeIdleAfterReads(server: Server): void {
  server.on('timeout', (socket: Socket) => closeWhenIdle(socket));
}
