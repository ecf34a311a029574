/**
 * Who is asking and under which name: the client's address (for sign-in throttling and IP-bound tokens)
 * and the scheme and host links are built from. `X-Forwarded-*` headers are believed only when the operator
 * says proxies are in front (TRUST_PROXY); otherwise any client could claim any address or host.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

type Header = (name: string) => string | undefined;

const canonical = (address: string): string => {
  const plain = address.trim().replace(/^\[(.*)\]$/, '$1');
  return plain.toLowerCase().startsWith('::ffff:') && isIP(plain.slice(7)) === 4 ? plain.slice(7) : plain;
};

/**
 * The client's address. With `trustedProxies` proxies in front, each appends the address it saw to
 * X-Forwarded-For, so the entry that many places from the right is the one the outermost trusted proxy saw.
 */
export function clientAddressOf(
  socketAddress: string | undefined,
  header: Header,
  trustedProxies: number,
): string | undefined {
  const socket = socketAddress ? canonical(socketAddress) : undefined;
  if (trustedProxies === 0) return socket;
  const hops = (header('x-forwarded-for') ?? '')
    .split(',')
    .map(canonical)
    .filter((a) => a !== '');
  if (hops.length === 0) return socket;
  const claimed = hops[Math.max(0, hops.length - trustedProxies)]!;
  return isIP(claimed) ? claimed : socket;
}

/** The Node request behind a Hono context, when the app runs under @hono/node-server. */
const incomingOf = (c: Context<AppEnv>): IncomingMessage | undefined =>
  (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;

export function clientAddress(c: Context<AppEnv>): string | undefined {
  return clientAddressOf(
    incomingOf(c)?.socket.remoteAddress,
    (name) => c.req.header(name),
    c.get('deps').config.trustedProxies,
  );
}

/** The first value of a forwarded header, when proxies are trusted. */
function forwarded(c: Context<AppEnv>, name: string): string | undefined {
  if (c.get('deps').config.trustedProxies === 0) return undefined;
  return c.req.header(name)?.split(',')[0]?.trim() || undefined;
}

const SCHEME = /^https?$/i;
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** `https` or `http`, as the client reached us. */
export function requestScheme(c: Context<AppEnv>): string {
  const proto = forwarded(c, 'x-forwarded-proto');
  if (proto && SCHEME.test(proto)) return proto.toLowerCase();
  return new URL(c.req.url).protocol.replace(':', '');
}

/** The host (and port) the client asked for: a trusted proxy's X-Forwarded-Host, else Host. */
export function requestHost(c: Context<AppEnv>): string {
  const candidates = [forwarded(c, 'x-forwarded-host'), c.req.header('host')];
  for (const host of candidates) if (host && HOST.test(host)) return host;
  return new URL(c.req.url).host;
}

/**
 * The part of an address one client controls: an IPv6 client usually holds a whole /64, so counting its
 * addresses one by one would let it rotate through them; IPv4 addresses count singly.
 */
export function addressBlock(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms) never reaches the first 64 bits.
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
