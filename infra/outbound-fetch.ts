/**
 * The one way the product fetches a URL someone gave it (a publish's geocodeServiceUrl today). Only hosts
 * an administrator allowed (OUTBOUND_ALLOWED_HOSTS) are contacted, so a client cannot make the server reach
 * its database, MinIO, Temporal or a cloud metadata address; each hop of a redirect is checked the same way.
 * A connection must open within the connect timeout, the answer must keep arriving within the read timeout,
 * and a body larger than the cap is cut off. Refusals name the URL and why, never what an internal
 * service answered.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { GeoError } from '../lib/errors.js';

export interface OutboundPolicy {
  /** `host` (any port) or `host:port`, lower-case; IPv6 hosts in brackets. Empty: nothing is fetched. */
  allowedHosts: string[];
  connectTimeoutMs: number;
  readTimeoutMs: number;
  maxResponseBytes: number;
}

export type OutboundFetch = (
  url: string,
  init?: { method?: 'GET' | 'POST'; body?: URLSearchParams },
) => Promise<Response>;

const MAX_REDIRECTS = 3;

export const notAllowed = (url: string, why: string) =>
  new GeoError({
    code: 400,
    message: 'The URL is not allowed.',
    details: [`${url}: ${why}. An administrator can allow its host with OUTBOUND_ALLOWED_HOSTS.`],
  });

const failed = (url: string, why: string) =>
  new GeoError({ code: 400, message: 'The remote service could not be read.', details: [`${url}: ${why}.`] });

/** The URL parsed, when its scheme is http(s) and its host is allowed; throws the refusal otherwise. */
export function allowedUrl(raw: string, policy: Pick<OutboundPolicy, 'allowedHosts'>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw notAllowed(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw notAllowed(raw, 'only http and https are fetched');
  if (url.username || url.password) throw notAllowed(raw, 'credentials in URLs are not sent');
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const ok = policy.allowedHosts.some((entry) => entry === host || entry === `${host}:${port}`);
  if (!ok) throw notAllowed(raw, `the host ${url.host} is not among the hosts this server may contact`);
  return url;
}

export function createOutboundFetch(policy: OutboundPolicy): OutboundFetch {
  return async (raw, init = {}) => {
    let url = allowedUrl(raw, policy);
    let method = init.method ?? 'GET';
    let body = init.body?.toString();
    for (let hop = 0; ; hop++) {
      const answer = await exchange(url, method, body, policy, raw);
      const location = answer.status >= 300 && answer.status < 400 ? answer.location : undefined;
      if (!location) {
        return new Response(
          answer.status === 204 || answer.status === 304 ? null : new Uint8Array(answer.body),
          {
            status: answer.status,
            headers: { 'content-type': answer.contentType ?? 'application/octet-stream' },
          },
        );
      }
      if (hop >= MAX_REDIRECTS) throw failed(raw, `more than ${MAX_REDIRECTS} redirects`);
      url = allowedUrl(new URL(location, url).href, policy);
      if (answer.status !== 307 && answer.status !== 308) {
        method = 'GET';
        body = undefined;
      }
    }
  };
}

interface Answer {
  status: number;
  contentType?: string;
  location?: string;
  body: Buffer;
}

function exchange(url: URL, method: string, body: string | undefined, policy: OutboundPolicy, asked: string) {
  return new Promise<Answer>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = send(url, { method, headers, timeout: policy.readTimeoutMs });
    const fail = (why: string) => {
      req.destroy();
      reject(failed(asked, why));
    };
    const connectTimer = setTimeout(
      () => fail(`no connection within ${policy.connectTimeoutMs / 1000} seconds`),
      policy.connectTimeoutMs,
    );
    req.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    // `timeout` fires when the socket is idle that long: a server that stops sending mid-answer.
    req.on('timeout', () => fail(`no answer for ${policy.readTimeoutMs / 1000} seconds`));
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(connectTimer);
      reject(failed(asked, e.code ? `connection failed (${e.code})` : 'connection failed'));
    });
    req.on('response', (res: IncomingMessage) => {
      clearTimeout(connectTimer);
      const declared = Number(res.headers['content-length']);
      if (declared > policy.maxResponseBytes) return fail(tooLarge(policy));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxResponseBytes) fail(tooLarge(policy));
        else chunks.push(chunk);
      });
      res.on('error', () => fail('the answer broke off'));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 502,
          contentType: res.headers['content-type'],
          location: res.headers.location,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.end(body);
  });
}

const tooLarge = (policy: OutboundPolicy) => `the answer is larger than ${policy.maxResponseBytes} bytes`;
