import { readdirSync } from 'node:fs';
import { type ClientRequest, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app.js';
import { ADMIN, type InProcessApp, inProcessApp } from '../auth/in-process-app.js';
import { analyzeInProcess, memoryStore } from './memory-store.js';

// Real HTTP uploads to the API in process: files from callers who have not shown a token yet are
// bounded in bytes (all together) and in concurrent requests per address, and every path leaves the
// temporary directory empty.
const CAP = 256 * 1024;
const BOUNDARY = 'spool-test-boundary';
/** The token is bound to this site; every upload says it comes from there, whatever its address. */
const REFERER = 'http://uploader.test';

/** A CSV of `bytes` bytes or a little more: a header and rows of x,y,name. */
function csvOf(bytes: number): Buffer {
  const lines = ['x,y,name'];
  let size = 9;
  for (let i = 0; size < bytes; i++) {
    const line = `${i % 180},${i % 90},place ${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = () =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="places.csv"\r\nContent-Type: text/csv\r\n\r\n`;

interface Upload {
  req: ClientRequest;
  answer: Promise<{ status: number; json: Record<string, any> }>;
}

describe('files spooled before the token is seen', { timeout: 120_000 }, () => {
  let app: InProcessApp;
  let server: ReturnType<typeof serve>;
  let port = 0;
  let token = '';
  let tmpDir = '';

  /**
   * Posts fields `before`, a file, then fields `after` to analyze. With `stallAt`, writes only that many
   * bytes of the file and holds the connection open.
   */
  function upload(opts: {
    path?: string;
    query?: string;
    from?: string;
    before?: Record<string, string>;
    file: Buffer;
    after?: Record<string, string>;
    stallAt?: number;
  }): Upload {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${opts.path ?? '/sharing/rest/content/features/analyze'}?f=json${opts.query ?? ''}`,
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'x-forwarded-for': opts.from ?? '10.1.1.1',
        referer: `${REFERER}/uploads`,
      },
    });
    const answer = new Promise<{ status: number; json: Record<string, any> }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('error', reject);
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      });
      req.on('error', reject);
    });
    req.on('error', () => {});
    // Aborted uploads reject; tests that abort check it when they choose to.
    answer.catch(() => {});
    const head = Object.entries({ filetype: 'csv', ...opts.before })
      .map(([k, v]) => field(k, v))
      .join('');
    req.write(head + fileHead());
    const end = opts.stallAt ?? opts.file.length;
    const write = async () => {
      for (let at = 0; at < end; at += 16 * 1024) {
        if (req.destroyed) return;
        if (!req.write(opts.file.subarray(at, Math.min(end, at + 16 * 1024))))
          await new Promise((r) => req.once('drain', r));
      }
      if (opts.stallAt !== undefined || req.destroyed) return;
      const tail = Object.entries(opts.after ?? {})
        .map(([k, v]) => field(k, v))
        .join('');
      req.end(`\r\n${tail}--${BOUNDARY}--\r\n`);
    };
    void write().catch(() => {});
    return { req, answer };
  }

  const tmpFiles = () => readdirSync(tmpDir).filter((n) => n.startsWith('upload-'));
  /** Waits until the server has removed every temporary upload file (removal follows the answer). */
  async function tmpEmpty(): Promise<string[]> {
    for (let i = 0; i < 100 && tmpFiles().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    return tmpFiles();
  }
  const spooling = async (n: number) => {
    for (let i = 0; i < 200 && tmpFiles().length < n; i++) await new Promise((r) => setTimeout(r, 25));
  };

  beforeAll(async () => {
    app = await inProcessApp({
      UPLOAD_ANONYMOUS_MAX_BYTES: String(CAP),
      UPLOAD_ANONYMOUS_PER_CLIENT: '2',
      TRUST_PROXY: '1',
      // Nothing listens there: storing an item fails after its file has been spooled.
      MINIO_ENDPOINT: 'http://127.0.0.1:9',
    });
    tmpDir = join(app.deps.config.dataDir, 'tmp');
    // analyze runs its activity in process over a store in memory; items (addItem) still go to the
    // unreachable MinIO above, so storing one fails after its upload.
    const memory = memoryStore(new Map());
    const minio = app.deps.store;
    const store = new Proxy(minio, {
      get: (target, prop, receiver) => {
        const own = Reflect.get(memory, prop, receiver);
        if (typeof own !== 'function') return Reflect.get(target, prop, receiver);
        return (key: string, ...rest: unknown[]) =>
          key.startsWith('analyze/')
            ? (own as (...a: unknown[]) => unknown).call(memory, key, ...rest)
            : (Reflect.get(target, prop, receiver) as (...a: unknown[]) => unknown).call(
                target,
                key,
                ...rest,
              );
      },
    });
    Object.assign(app.deps, { store, temporal: await analyzeInProcess(store) });
    const res = await app.call('/sharing/rest/generateToken', {
      ...ADMIN,
      client: 'referer',
      referer: REFERER,
    });
    token = res.json.token;
    expect(token).toBeTruthy();
    await new Promise<void>((resolve) => {
      server = serve({ fetch: createApp(app.deps).fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  }, 120_000);
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await app.close();
  });

  it('takes a file larger than the anonymous bound when the token comes first, in the query string or a field', async () => {
    const file = csvOf(4 * CAP);
    const viaQuery = await upload({ query: `&token=${token}`, file }).answer;
    expect(viaQuery.json.publishParameters?.name).toBe('places');
    const viaField = await upload({ before: { token }, file }).answer;
    expect(viaField.json.publishParameters?.name).toBe('places');
    expect(await tmpEmpty()).toEqual([]);
  });

  it('takes a file within the bound whose token comes after it, as ArcGIS clients send it', async () => {
    const ok = await upload({ file: csvOf(CAP / 2), after: { token } }).answer;
    expect(ok.json.publishParameters?.name).toBe('places');
    expect(await tmpEmpty()).toEqual([]);
  });

  it('refuses, before reading it all, a file past the bound whose token has not come yet (403)', async () => {
    const started = Date.now();
    const refused = await upload({ file: csvOf(64 * CAP), after: { token } }).answer;
    expect(refused.json.error).toMatchObject({
      code: 403,
      details: [
        expect.stringContaining(`at most ${CAP} bytes at once`),
        expect.stringContaining('before the file'),
      ],
    });
    expect(refused.json.error.details[0]).toContain('UPLOAD_ANONYMOUS_MAX_BYTES');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await tmpEmpty()).toEqual([]);
  });

  it('refuses an invalid token given before the file without writing the file (498)', async () => {
    const refused = await upload({ before: { token: 'not-a-token' }, file: csvOf(4 * CAP) }).answer;
    expect(refused.json.error).toMatchObject({ code: 498, message: 'Invalid token.' });
    expect(await tmpEmpty()).toEqual([]);
  });

  it('removes the file of a caller who turns out not to be signed in (499 after the upload)', async () => {
    const refused = await upload({ file: csvOf(CAP / 2) }).answer;
    expect(refused.json.error).toMatchObject({ code: 499 });
    expect(await tmpEmpty()).toEqual([]);
  });

  it('allows two unauthenticated uploads at once per address, refuses a third (429), and cleans up aborted ones', async () => {
    const file = csvOf(CAP / 2);
    const first = upload({ file, stallAt: 32 * 1024, from: '10.9.9.9' });
    const second = upload({ file, stallAt: 32 * 1024, from: '10.9.9.9' });
    await spooling(2);
    expect(tmpFiles()).toHaveLength(2);
    const third = await upload({ file, after: { token }, from: '10.9.9.9' }).answer;
    expect(third.json.error).toMatchObject({
      code: 429,
      details: [expect.stringContaining('UPLOAD_ANONYMOUS_PER_CLIENT'), expect.any(String)],
    });
    // Another address is not held back by this one.
    const other = await upload({ file, after: { token }, from: '10.8.8.8' }).answer;
    expect(other.json.publishParameters?.name).toBe('places');
    // Clients that go away mid-upload leave nothing behind and free their share.
    first.req.destroy();
    second.req.destroy();
    await expect(first.answer).rejects.toThrow();
    await expect(second.answer).rejects.toThrow();
    expect(await tmpEmpty()).toEqual([]);
    const after = await upload({ file, after: { token }, from: '10.9.9.9' }).answer;
    expect(after.json.publishParameters?.name).toBe('places');
    expect(await tmpEmpty()).toEqual([]);
  });

  it('removes the file when the operation fails on the server after the upload', async () => {
    const failed = await upload({
      path: '/sharing/rest/content/users/portaladmin/addItem',
      query: `&token=${token}`,
      before: { type: 'CSV', title: 'places' },
      file: csvOf(CAP),
    }).answer;
    expect(failed.json.error?.code).toBe(500);
    expect(await tmpEmpty()).toEqual([]);
  });
});
