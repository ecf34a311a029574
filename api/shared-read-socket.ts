/**
 * A connection read into one buffer the whole process shares, for the socket front. A socket's 'data'
 * path costs a new buffer per read (an allocation, a shrink and an ArrayBuffer around it) and a pass
 * through the readable stream; a socket made with `onread` reads into a buffer it is given and hands
 * the bytes to a callback. On this 2-core machine a server answering kept-alive requests of a few hundred
 * bytes took 12–14 µs of CPU a request so against 15–18 µs with 'data' (bench/README "Tiles", session 40).
 *
 * Node gives `onread` only to sockets it connects itself, not to the ones a server accepts, so the
 * accepted connection's handle is moved to a new socket made with it (as Node's own cluster and
 * child_process hand a handle to a new socket). Reads are delivered one at a time on the main thread
 * and each is used up before the next, so one buffer serves every connection: whatever is kept past the
 * callback must be copied out of it.
 */
import { type Server, Socket } from 'node:net';

/** A read takes at most this much; more waits for the next read. */
const READ_BYTES = 64 * 1024;
let sharedBuffer: Buffer | undefined;

/** Node's own fields of a socket moved here (net.js): its handle, and the server counting it. */
interface SocketInternals {
  _handle: unknown;
  server: Server | null;
  _server: Server | null;
}

export interface SharedReadConnection {
  socket: Socket;
  /**
   * From now on the connection's reads go to the socket's stream (copied out of the shared buffer), as
   * on any socket: for Node's HTTP server, which reads the handle itself and falls back to the stream.
   */
  release(): void;
}

/**
 * Moves an accepted, not yet reading connection (the server's `pauseOnConnect`) to a socket whose reads
 * go to `onRead` (the bytes are `data[0, length)`, valid only during the call). Undefined when the
 * connection has no handle to move (a socket of another kind); it is then left as it was.
 */
export function readIntoSharedBuffer(
  accepted: Socket,
  onRead: (data: Buffer, length: number) => void,
): SharedReadConnection | undefined {
  const before = accepted as unknown as SocketInternals;
  if (!before._handle) return undefined;
  sharedBuffer ??= Buffer.allocUnsafe(READ_BYTES);
  let deliver = onRead;
  const socket = new Socket({
    handle: before._handle,
    allowHalfOpen: accepted.allowHalfOpen,
    readable: true,
    writable: true,
    onread: {
      buffer: sharedBuffer,
      callback: (length: number, data: Uint8Array) => {
        deliver(data as Buffer, length);
      },
    },
  } as ConstructorParameters<typeof Socket>[0]);
  // The server counts the connection until the socket that now holds it closes.
  const after = socket as unknown as SocketInternals;
  after.server = before.server;
  after._server = before._server;
  before.server = null;
  before._server = null;
  before._handle = null;
  const release = () => {
    deliver = (data, length) => {
      socket.push(Buffer.from(data.subarray(0, length)));
    };
  };
  return { socket, release };
}
