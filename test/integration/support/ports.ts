import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The kernel's range for ports bound to 0. The Temporal dev server binds its inner services (history,
 * matching, membership) to such ports after we have chosen ours, so a port of ours taken from that range
 * can be taken from under us. Ports are chosen below it.
 */
function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const n = Number(low);
    return Number.isInteger(n) && n > 0 ? n : 32768;
  } catch {
    return 32768;
  }
}

const lowest = 20_000;

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const handedOut = new Set<number>();

/**
 * A free port for a server a test starts, chosen at random below the kernel's ephemeral range so no program
 * binding to port 0 meanwhile (Temporal's inner services, outgoing connections) takes it, and never the
 * same one twice in a process. Falls back to a kernel-chosen port where there is no room below that range.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  if (high - lowest < 1_000) return kernelPort();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = lowest + Math.floor(Math.random() * (high - lowest + 1));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  return kernelPort();
}
