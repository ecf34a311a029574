import { inject } from 'vitest';

/** Small helpers over fetch for talking to the running product the way REST clients do. */
export function stack() {
  return inject('stack');
}

export async function call(
  path: string,
  params: Record<string, string> = {},
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: Record<string, any>; text: string; headers: Headers }> {
  const method = init.method ?? 'POST';
  const url = new URL(`${stack().baseUrl}${path}`);
  const body = new URLSearchParams({ f: 'json', ...params });
  if (method === 'GET') for (const [k, v] of body) url.searchParams.set(k, v);
  const send = () =>
    fetch(url, {
      method,
      headers: {
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      body: method === 'POST' ? body : undefined,
    });
  // A kept-alive connection the server closed as idle just as a request went out on it is reset; a
  // browser sends such an idempotent GET again on a new connection (RFC 9112 §9.3.1), and so does this
  // client, once. Under a loaded test run the server's idle timers can fire late, after a request
  // reached the socket. A POST is never sent twice.
  const res = await send().catch((e: unknown) => {
    const code = (e as { cause?: { code?: string } }).cause?.code;
    if (method === 'GET' && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')) return send();
    throw e;
  });
  const text = await res.text();
  let json: Record<string, any> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON; callers assert on text
  }
  return { status: res.status, json, text, headers: res.headers };
}

export async function signIn(
  username = stack().admin.username,
  password = stack().admin.password,
): Promise<string> {
  const res = await call('/sharing/rest/generateToken', {
    username,
    password,
    client: 'requestip',
    expiration: '60',
  });
  if (!res.json.token) throw new Error(`sign-in failed: ${res.text}`);
  return res.json.token as string;
}

let adminTokenOnce: Promise<string> | undefined;

/** One administrator token per test file, for reading the (private) services the tests publish. */
export function adminToken(): Promise<string> {
  adminTokenOnce ??= signIn();
  return adminTokenOnce;
}
